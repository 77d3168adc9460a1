from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"

    def ready(self) -> None:
        # The group's page shows its chat: chat adds it there, so that groups imports nothing of chat.
        from chat.selectors import group_page_part
        from groups import pages

        pages.parts.register(group_page_part)
