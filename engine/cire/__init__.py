"""CIRE: clinical information retention after de-identification (judge + guard)."""

from __future__ import annotations

from engine.cire.align import align_tokens, hirschberg, tokenize
from engine.cire.assess import ChunkPair, assess, chunk_pairs
from engine.cire.guard import ClinicalGuard
from engine.cire.judge import Judge, LlamaJudge
from engine.cire.lexicon import Lexicon, default_lexicon, find_clinical
from engine.cire.report import CireFlag, CireReport, FlagReason, FlagSource, Severity

__all__ = ["ChunkPair", "CireFlag", "CireReport", "ClinicalGuard", "FlagReason", "FlagSource",
           "Judge", "Lexicon", "LlamaJudge", "Severity", "align_tokens", "assess",
           "chunk_pairs", "default_lexicon", "find_clinical", "hirschberg", "tokenize"]
