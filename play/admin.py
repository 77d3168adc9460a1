"""The staff delete an account as its player does (play.account_data): the row stays under a
placeholder name, so that the games, whose seats PROTECT it, stay too; the admin's own delete would
refuse, or take the games with it."""

from django.contrib import admin

from accounts.admin import PlayerAdmin
from accounts.models import User
from play import account_data

admin.site.unregister(User)


@admin.register(User)
class DeletingPlayerAdmin(PlayerAdmin):
    def get_deleted_objects(self, objs, request):
        # The confirmation page lists the accounts alone: nothing else is deleted with them, and the
        # protected seats stop nothing (account_data keeps them). The delete permission of the user
        # model is all it takes (the admin checks it before it asks this).
        return [str(user) for user in objs], {}, set(), []

    def delete_model(self, request, obj) -> None:
        account_data.account_delete(user=obj)

    def delete_queryset(self, request, queryset) -> None:
        for user in queryset:
            account_data.account_delete(user=user)
