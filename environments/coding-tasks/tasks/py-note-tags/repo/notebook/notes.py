"""Notes with tags."""


class Note:
    """A note: its text and its tags, in the order they were added."""

    def __init__(self, text, tags=[]):
        self.text = text
        self.tags = tags

    def add_tag(self, tag):
        """Adds `tag` unless the note has it already."""
        if tag not in self.tags:
            self.tags.append(tag)

    def __repr__(self):
        return f"Note({self.text!r}, tags={self.tags!r})"
