"""Group pages: the list of your groups, a group's page, and the creator's management actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.errors import Forbidden, GameError
from groups import selectors, services
from groups.forms import AddMemberForm, GroupForm
from groups.models import Group


@login_required
def group_list(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.group_create(creator=request.user, **form.cleaned_data)
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Group “{group.name}” created. Add your friends by username.")
            return redirect("groups:detail", group_id=group.pk)
    groups = request.user.dice_groups.select_related("creator").order_by("name")
    return render(request, "groups/list.html", {"groups": groups, "form": form})


@login_required
def group_detail(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group.objects.select_related("creator"), pk=group_id)
    if not selectors.is_member(group, request.user):
        # Outsiders with the link learn the name and nothing else.
        return render(request, "groups/outside.html", {"group": group}, status=403)
    context = selectors.group_page(group)
    context.update(group=group, add_form=AddMemberForm(), is_creator=group.creator_id == request.user.pk)
    return render(request, "groups/detail.html", context)


def _denied(request: HttpRequest, group: Group) -> HttpResponse:
    return render(request, "groups/outside.html", {"group": group, "denied": True}, status=403)


@login_required
def group_edit(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id)
    if group.creator_id != request.user.pk:
        return _denied(request, group)
    form = GroupForm(request.POST or None, instance=group)
    if request.method == "POST" and form.is_valid():
        services.group_update(group_id=group.pk, user=request.user, **form.cleaned_data)
        messages.success(request, "Group saved.")
        return redirect("groups:detail", group_id=group.pk)
    return render(request, "groups/edit.html", {"group": group, "form": form})


def _act(request: HttpRequest, group_id: int, call, ok: str, **kwargs) -> HttpResponse | None:
    """Run a group service; None on success, else the response for its refusal."""
    group = get_object_or_404(Group, pk=group_id)
    try:
        call(group_id=group_id, user=request.user, **kwargs)
    except Forbidden:
        return _denied(request, group)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("groups:detail", group_id=group_id)
    messages.success(request, ok)
    return None


@login_required
@require_POST
def member_add(request: HttpRequest, group_id: int) -> HttpResponse:
    username = request.POST.get("username", "")
    response = _act(request, group_id, services.group_add_member, f"{username} was added.", username=username)
    return response or redirect("groups:detail", group_id=group_id)


@login_required
@require_POST
def member_remove(request: HttpRequest, group_id: int, user_id: int) -> HttpResponse:
    response = _act(request, group_id, services.group_remove_member, "Member removed.", member_id=user_id)
    return response or redirect("groups:detail", group_id=group_id)


@login_required
@require_POST
def group_leave(request: HttpRequest, group_id: int) -> HttpResponse:
    response = _act(request, group_id, services.group_leave, "You left the group.")
    return response or redirect("groups:list")


@login_required
@require_POST
def group_delete(request: HttpRequest, group_id: int) -> HttpResponse:
    response = _act(request, group_id, services.group_delete, "Group deleted. Its games are kept.")
    return response or redirect("groups:list")
