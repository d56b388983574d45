"""The CIRE judge: did the de-identified chunk alter clinically meaningful information?"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol, runtime_checkable

from engine.paths import resource
from engine.runtimes import LlamaRuntime, TokenBudget

YES_NO_GRAMMAR = 'root ::= "Yes" | "No"'


@runtime_checkable
class Judge(Protocol):
    name: str

    def begin_document(self) -> None:
        """Called before each document (reset model state, new token budget)."""
        ...

    def changed(self, original: str, deidentified: str) -> bool:
        """True when the de-identified chunk alters clinically meaningful information."""
        ...


@lru_cache(maxsize=1)
def judge_prompt() -> str:
    return resource("prompts", "cire_judge.txt").read_text(encoding="utf-8")


def judge_messages(original: str, deidentified: str) -> list[dict[str, str]]:
    # Figure 6 of the CIRE paper as the system prompt; Algorithm 1's "original: / deid:" input.
    return [{"role": "system", "content": judge_prompt()},
            {"role": "user", "content": f"original: {original}\ndeid: {deidentified}\nOutput:"}]


class LlamaJudge:
    """A local GGUF model answering one constrained token: Yes or No."""

    def __init__(self, runtime: LlamaRuntime) -> None:
        self.runtime = runtime
        self.name = f"llm.{runtime.name}"
        self._budget: TokenBudget = runtime.new_budget()
        self.calls = 0

    def begin_document(self) -> None:
        self.runtime.reset()
        self._budget = self.runtime.new_budget()

    def changed(self, original: str, deidentified: str) -> bool:
        completion = self.runtime.chat(judge_messages(original, deidentified), max_tokens=2,
                                       grammar=YES_NO_GRAMMAR, budget=self._budget)
        self.calls += 1
        return completion.text.strip().casefold().startswith("yes")
