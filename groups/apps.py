from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "groups"
    label = "dicegroups"  # "groups" would clash with django.contrib.auth's Group reverse names

    def ready(self) -> None:
        from accounts import arrivals
        from games import access
        from groups import invites
        from groups.models import Membership

        arrivals.welcomers.register(invites)  # an invitation opened signed out is honoured at sign-in
        access.group_members.register(Membership)  # a private game is its group's members'
