"""Group pages: the list of your groups, a group's page, the creator's management actions, and the
group's invitation link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import Forbidden, GameError
from groups import invites, pages, selectors, services
from groups.forms import AddMemberForm, GroupForm
from groups.models import Group
from notices.models import preferences_of


@login_required
def group_list(request: HttpRequest) -> HttpResponse:
    form = GroupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = services.group_create(creator=request.user, **form.cleaned_data)
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, _("Group “%(name)s” created. Add your friends by username.") % {"name": group.name}
            )
            return redirect("groups:detail", group_id=group.pk)
    groups = request.user.dice_groups.select_related("creator").order_by("name")
    return render(request, "groups/list.html", {"groups": groups, "form": form})


@login_required
def group_detail(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group.objects.select_related("creator"), pk=group_id)
    if not selectors.is_member(group, request.user):
        # A private group: outsiders learn nothing of it, not even that it exists (its invitation link
        # shows its name, to those the creator gave it).
        raise Http404("No such group.")
    return _group_page(request, group, AddMemberForm())


def _group_page(
    request: HttpRequest, group: Group, add_form: AddMemberForm, status: int = 200
) -> HttpResponse:
    """The group's page for one of its members."""
    context = selectors.group_page(group, request.user)
    is_creator = group.creator_id == request.user.pk
    context.update(group=group, add_form=add_form, is_creator=is_creator)
    context.update(pages.context(request, group), mute_chat=preferences_of(request.user).mute_chat)
    if is_creator and group.invite_token:
        invite_path = reverse("groups:invite", args=[group.invite_token])
        context["invite_url"] = request.build_absolute_uri(invite_path)
        context["share_text"] = _("%(host)s invites you to the dice group “%(group)s”.") % {
            "host": group.creator.username,
            "group": group.name,
        }
    return render(request, "groups/detail.html", context, status=status)


@login_required
def group_head_to_head(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every pair of members who met in the group's finished games."""
    group = get_object_or_404(Group, pk=group_id)
    if not selectors.is_member(group, request.user):
        raise Http404("No such group.")
    pairs = selectors.head_to_head(group)
    return render(request, "groups/head_to_head.html", {"group": group, "head_to_head": pairs})


def _denied(request: HttpRequest, group: Group) -> HttpResponse:
    """A member who is not the creator is told why; an outsider learns nothing (404, as for no group)."""
    if not selectors.is_member(group, request.user):
        raise Http404("No such group.")
    return render(request, "groups/outside.html", {"group": group}, status=403)


@login_required
def group_edit(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id)
    if group.creator_id != request.user.pk:
        return _denied(request, group)
    form = GroupForm(request.POST or None, instance=group)
    if request.method == "POST" and form.is_valid():
        services.group_update(group_id=group.pk, user=request.user, **form.cleaned_data)
        messages.success(request, _("Group saved."))
        return redirect("groups:detail", group_id=group.pk)
    return render(request, "groups/edit.html", {"group": group, "form": form})


def _act(request: HttpRequest, group_id: int, call, ok: str, **kwargs) -> HttpResponse | None:
    """Run a group service; None on success, else the response for its refusal. Any refusal to an
    outsider is the 404 of a missing group (_denied): a message and a redirect instead would tell
    them which group numbers exist."""
    group = get_object_or_404(Group, pk=group_id)
    try:
        call(group_id=group_id, user=request.user, **kwargs)
    except Forbidden:
        return _denied(request, group)
    except GameError as exc:
        if not selectors.is_member(group, request.user):
            raise Http404("No such group.") from exc
        messages.error(request, exc.message)
        return redirect("groups:detail", group_id=group_id)
    messages.success(request, ok)
    return None


@login_required
@require_POST
def member_add(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_object_or_404(Group, pk=group_id)
    if group.creator_id != request.user.pk:
        return _denied(request, group)
    form = AddMemberForm(request.POST)
    if not form.is_valid():
        # A name no player can have (too long, a NUL): the page again with why, before it is looked up.
        return _group_page(request, group, form, status=400)
    username = form.cleaned_data["username"]
    added = _("%(name)s was added.") % {"name": username}
    response = _act(request, group_id, services.group_add_member, added, username=username)
    return response or redirect("groups:detail", group_id=group_id)


@login_required
@require_POST
def member_remove(request: HttpRequest, group_id: int, user_id: int) -> HttpResponse:
    response = _act(request, group_id, services.group_remove_member, _("Member removed."), member_id=user_id)
    return response or redirect("groups:detail", group_id=group_id)


@login_required
@require_POST
def group_leave(request: HttpRequest, group_id: int) -> HttpResponse:
    response = _act(request, group_id, services.group_leave, _("You left the group."))
    return response or redirect("groups:list")


@login_required
@require_POST
def group_delete(request: HttpRequest, group_id: int) -> HttpResponse:
    response = _act(request, group_id, services.group_delete, _("Group deleted. Its games are kept."))
    return response or redirect("groups:list")


@login_required
@require_POST
def invite_create(request: HttpRequest, group_id: int) -> HttpResponse:
    response = _act(
        request,
        group_id,
        services.group_invite_create,
        _("Your group's invitation link is ready: copy it and send it to your friends."),
    )
    return response or redirect("groups:detail", group_id=group_id)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, group_id: int) -> HttpResponse:
    response = _act(
        request,
        group_id,
        services.group_invite_revoke,
        _("The invitation link is revoked: nobody can join with it any more."),
    )
    return response or redirect("groups:detail", group_id=group_id)


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The group's invitation link: its name and creator, and one button to join (POST). Signed out, the
    way in through sign-up or sign-in, after which the visitor is a member (groups/invites.py)."""
    group = selectors.invited_group(token)
    if group is None:
        return render(request, "groups/invite_invalid.html", status=404)
    if not request.user.is_authenticated:
        invites.remember_group(request, token)
        return render(request, "groups/invite.html", {"group": group, "next": request.path})
    if request.method == "POST":
        try:
            membership, joined = services.group_join_by_invite(token=token, user=request.user)
        except GameError as exc:
            messages.error(request, exc.message)
            return redirect("groups:invite", token=token)
        invites.welcome(request, membership, joined)
        return redirect("groups:detail", group_id=membership.group_id)
    return render(
        request, "groups/invite.html", {"group": group, "member": selectors.is_member(group, request.user)}
    )
