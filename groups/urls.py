from django.urls import path

from . import views

app_name = "groups"

urlpatterns = [
    path("", views.group_list, name="list"),
    path("<int:group_id>/", views.group_detail, name="detail"),
    path("<int:group_id>/edit/", views.group_edit, name="edit"),
    path("<int:group_id>/delete/", views.group_delete, name="delete"),
    path("<int:group_id>/leave/", views.group_leave, name="leave"),
    path("<int:group_id>/members/add/", views.member_add, name="member_add"),
    path("<int:group_id>/members/<int:user_id>/remove/", views.member_remove, name="member_remove"),
    path("<int:group_id>/invite/", views.invite_create, name="invite_create"),
    path("<int:group_id>/invite/revoke/", views.invite_revoke, name="invite_revoke"),
    path("join/<str:token>/", views.invitation, name="invite"),
]
