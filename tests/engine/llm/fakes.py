"""A fake llama_cpp.Llama for exact-behaviour tests: scripted replies, call log, lock check."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

Reply = str | Callable[[list[dict[str, str]]], str]


class FakeChatModel:
    def __init__(self, replies: list[Reply] | Reply, *, delay: float = 0.0,
                 tokens_per_call: int = 100) -> None:
        self.replies = replies
        self.delay = delay
        self.tokens_per_call = tokens_per_call
        self.calls: list[dict[str, Any]] = []
        self.resets = 0
        self.concurrent = 0
        self.max_concurrent = 0
        self._guard = threading.Lock()

    def _next(self, messages: list[dict[str, str]]) -> str:
        reply = (self.replies[min(len(self.calls) - 1, len(self.replies) - 1)]
                 if isinstance(self.replies, list) else self.replies)
        return reply(messages) if callable(reply) else reply

    def create_chat_completion(self, **kwargs: Any) -> dict[str, Any]:
        with self._guard:
            self.concurrent += 1
            self.max_concurrent = max(self.max_concurrent, self.concurrent)
            self.calls.append(kwargs)
        try:
            if self.delay:
                time.sleep(self.delay)
            text = self._next(kwargs["messages"])
        finally:
            with self._guard:
                self.concurrent -= 1
        return {"choices": [{"message": {"content": text}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": self.tokens_per_call - 10, "completion_tokens": 10}}

    def reset(self) -> None:
        self.resets += 1


def entities(*items: tuple[str, str]) -> str:
    return json.dumps({"entities": [{"label": label, "text": text} for label, text in items]})


def chunk_text(messages: list[dict[str, str]]) -> str:
    """The chunk the detector sent (user message is 'Text: ...\\nOutput:')."""
    content = messages[-1]["content"]
    return content[len("Text: "):-len("\nOutput:")]
