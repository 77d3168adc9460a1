from django.urls import path

from infra import params  # noqa: F401 (registers the <id:> and <text:> converters)

from . import views

app_name = "groups"

urlpatterns = [
    path("", views.group_list, name="list"),
    path("<id:group_id>/", views.group_detail, name="detail"),
    path("<id:group_id>/head-to-head/", views.group_head_to_head, name="head_to_head"),
    path("<id:group_id>/edit/", views.group_edit, name="edit"),
    path("<id:group_id>/delete/", views.group_delete, name="delete"),
    path("<id:group_id>/leave/", views.group_leave, name="leave"),
    path("<id:group_id>/members/add/", views.member_add, name="member_add"),
    path("<id:group_id>/members/<id:user_id>/remove/", views.member_remove, name="member_remove"),
    path("<id:group_id>/invite/", views.invite_create, name="invite_create"),
    path("<id:group_id>/invite/revoke/", views.invite_revoke, name="invite_revoke"),
    path("join/<text:token>/", views.invitation, name="invite"),
]
