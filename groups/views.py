"""Group pages."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from groups.models import Group


@login_required
def group_detail(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id)
    return render(request, "groups/detail.html", {"group": group})
