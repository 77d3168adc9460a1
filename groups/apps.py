from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "groups"
    label = "dicegroups"  # "groups" would clash with django.contrib.auth's Group reverse names
