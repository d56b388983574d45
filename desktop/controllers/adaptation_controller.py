"""AdaptationController: learning from the reviewer (issue 25) on the GUI side.

It watches the project controller's review signals and, a moment after the reviewer stops,
asks a worker for the project's learning counts (``LearningSummary``); enough new decisions
make an offer that the banner shows. Learning (``adapt`` then re-detecting the documents
nobody reviewed), removing entries and going back each run in a Task: the GUI thread never
reads or writes the project. Task names and messages carry counts, never an entry's text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from desktop.models.learned_entries import LearnedView, learned_view
from desktop.tasks import Task
from engine.core.context import RunContext

if TYPE_CHECKING:
    from desktop.controllers.project_controller import ProjectController
    from engine.api import AdaptReport, LearningSummary, PhiEntry, VocabEntry

# The learned resolver needs 200 reviewed candidates (and 20 accepted and 20 rejected) before
# it replaces the default resolver; the PHI dictionary and the clinical vocabulary help from
# the first few decisions, so the offer comes after this many decisions not yet learned from.
OFFER_AFTER_DECISIONS = 20
CHECK_DELAY_MS = 800  # wait for the reviewer to pause before counting
RECHECK_BATCH = 25  # documents re-detected between two progress reports and cancel checks


@dataclass(frozen=True)
class Offer:
    """What the banner proposes: "learn" (adapt, then re-check) or "recheck" (the profile
    changed since the unreviewed documents were detected)."""

    action: str
    text: str


def offer_for(summary: LearningSummary, *, dismissed_at: int | None,
              threshold: int = OFFER_AFTER_DECISIONS) -> Offer | None:
    """The offer these counts call for (None: nothing to offer, or the reviewer said "not
    now" and has not made ``threshold`` more decisions since)."""
    if dismissed_at is not None and summary.decisions < dismissed_at + threshold:
        return None
    others = (f"re-check the {summary.unreviewed} document(s) nobody has reviewed"
              if summary.unreviewed else "use it on documents you import next")
    if summary.new_decisions >= threshold:
        again = " since it last learned" if summary.learned_decisions else ""
        return Offer("learn", f"You made {summary.new_decisions} review decisions{again}. "
                              f"ClearNote can learn this project's names and clinical words "
                              f"from them and {others}. Documents you reviewed stay as they are.")
    if summary.versions and summary.stale:
        return Offer("recheck", f"What ClearNote learned changed: re-check the "
                                f"{summary.stale} document(s) nobody has reviewed with it.")
    return None


def _outcome(adapt: AdaptReport | None, detected: int) -> str:
    parts = []
    if adapt is not None and adapt.version is None:
        parts.append("Nothing to learn yet (no review decisions or lists)")
    elif adapt is not None:
        learned = sum(adapt.counts.values())
        parts.append(f"Learned {learned} entr{'y' if learned == 1 else 'ies'} from "
                     f"{adapt.decisions} decisions in {adapt.documents_reviewed} reviewed "
                     f"document(s)" + ("" if adapt.changed else " (nothing new)"))
    parts.append(f"re-checked {detected} document(s)")
    return "; ".join(parts) + "."


class AdaptationController(QObject):
    offerChanged = Signal(object)  # Offer | None
    learnProgress = Signal(str, int, int, str)  # stage, done, total, message (counts only)
    learnFinished = Signal(str)  # what happened, in counts
    learnStopped = Signal(str)  # cancelled or failed: why, in words
    entriesReady = Signal(object)  # LearnedView
    message = Signal(str)  # for the status bar

    def __init__(self, projects: ProjectController, parent: QObject | None = None, *,
                 threshold: int = OFFER_AFTER_DECISIONS) -> None:
        super().__init__(parent)
        self.projects = projects
        self.threshold = threshold
        self.summary: LearningSummary | None = None
        self.offer: Offer | None = None
        self.dismissed_at: int | None = None
        self.learning: Task | None = None
        self.panel_wanted = False  # the panel is open: refresh it after every change
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(CHECK_DELAY_MS)
        self._timer.timeout.connect(self.check_now)
        projects.projectOpened.connect(lambda _path: self._opened())
        projects.projectClosed.connect(self._closed)
        projects.spanChanged.connect(lambda *_: self.check_soon())
        projects.documentsChanged.connect(lambda _entries: self.check_soon())

    # ------------------------------------------------------------------ the offer

    def check_soon(self) -> None:
        if self.projects.is_open and self.learning is None:
            self._timer.start()

    def check_now(self) -> None:
        project = self.projects.project
        if project is None or self.learning is not None:
            return
        self._submit("learning.summary", lambda ctx: project.adaptation.summary(),
                     self._summarised, serial=True)

    def _summarised(self, summary: LearningSummary) -> None:
        if self.projects.project is None:
            return
        self.summary = summary
        offer = None if self.learning is not None else offer_for(
            summary, dismissed_at=self.dismissed_at, threshold=self.threshold)
        if offer != self.offer:
            self.offer = offer
            self.offerChanged.emit(offer)

    def dismiss(self) -> None:
        """"Not now": ask again after ``threshold`` more decisions."""
        self.dismissed_at = self.summary.decisions if self.summary is not None else 0
        self.offer = None
        self.offerChanged.emit(None)

    # ------------------------------------------------------------------ learning

    def learn(self, *, recheck_only: bool = False) -> Task | None:
        """Adapt (unless ``recheck_only``) then re-detect the documents nobody reviewed,
        in a worker, with progress; ``cancel`` stops it between documents."""
        project = self.projects.project
        if project is None or self.learning is not None:
            return None

        def work(ctx: RunContext) -> tuple[AdaptReport | None, int]:
            adaptation = project.adaptation
            report = None if recheck_only else adaptation.adapt(ctx)
            # adaptation.redetect(), in batches: the bar counts documents (the pipeline's
            # own per-detector reports would make it jump), and Cancel stops between them.
            ids = adaptation.stale_documents()
            quiet = RunContext(cancel=ctx.cancel)
            detected = 0
            for start in range(0, len(ids), RECHECK_BATCH):
                ctx.check()
                detected += len(project.detect(ids[start:start + RECHECK_BATCH], quiet).detected)
                done = min(start + RECHECK_BATCH, len(ids))
                ctx.report("detect", done, len(ids), f"{done} of {len(ids)} documents")
            return report, detected

        self.offer = None
        self.offerChanged.emit(None)
        self.learning = self.projects.runner.submit(
            "learning.adapt", work, on_done=self._learned, on_error=self._stopped,
            on_progress=self.learnProgress.emit,
            on_cancel=lambda: self._stopped("Cancelled. What was learned before stopping is "
                                            "kept; re-check the rest from the banner."))
        return self.learning

    def cancel(self) -> None:
        if self.learning is not None:
            self.learning.cancel()

    def _learned(self, result: tuple[AdaptReport | None, int]) -> None:
        self.learning = None
        self.dismissed_at = None
        if self.projects.project is not None:  # not a late signal from a closed project
            self.learnFinished.emit(_outcome(*result))
            self._after_change()

    def _stopped(self, why: str) -> None:
        self.learning = None
        if self.projects.project is not None:
            self.learnStopped.emit(why)
            self._after_change()

    def _after_change(self) -> None:
        """The profile or the unreviewed documents changed: show it everywhere."""
        if self.projects.project is None:
            return
        self.projects.refresh_documents()
        if self.projects.current_id:
            self.projects.load_document(self.projects.current_id)
        if self.panel_wanted:
            self.refresh_entries()
        self.check_now()

    # ------------------------------------------------------------------ the panel

    def refresh_entries(self) -> None:
        project = self.projects.project
        if project is None:
            return

        def work(ctx: RunContext) -> LearnedView:
            adaptation = project.adaptation
            profile = adaptation.profile
            versions = adaptation.versions()
            active = next((v.version for v in versions if v.active), None)
            if profile is None:
                return learned_view(None, active, len(versions), {})
            matches = adaptation.entry_matches((*profile.phi, *profile.vocabulary), ctx)
            return learned_view(profile, active, len(versions), matches)

        self._submit("learning.entries", work, self.entriesReady.emit)

    def remove(self, entries: Sequence[PhiEntry | VocabEntry]) -> None:
        """A new profile version without ``entries`` (undoable)."""
        project = self.projects.project
        if project is None or not entries:
            return
        chosen = tuple(entries)
        self._submit("learning.remove", lambda ctx: project.adaptation.remove_entries(chosen),
                     lambda version: self._changed(
                         f"Removed {len(chosen)} entr{'y' if len(chosen) == 1 else 'ies'} "
                         f"(profile version {version}; Undo brings them back)."), serial=True)

    def undo(self) -> None:
        """Back to the previous profile version (or to none)."""
        project = self.projects.project
        if project is None:
            return
        self._submit("learning.undo", lambda ctx: project.adaptation.undo(),
                     lambda version: self._changed(
                         f"Went back to profile version {version}." if version is not None
                         else "Went back to the shipped detection (nothing learned)."),
                     serial=True)

    def _changed(self, text: str) -> None:
        self.message.emit(text)
        self.dismissed_at = None
        if self.panel_wanted:
            self.refresh_entries()
        self.check_now()

    # ------------------------------------------------------------------ plumbing

    def _opened(self) -> None:
        self.summary, self.offer, self.dismissed_at = None, None, None
        self.offerChanged.emit(None)
        self.check_now()
        if self.panel_wanted:
            self.refresh_entries()

    def _closed(self) -> None:
        self._timer.stop()
        self.learning = None  # the project controller cancelled and waited for it
        self.summary, self.offer = None, None
        self.offerChanged.emit(None)
        self.entriesReady.emit(LearnedView(None, 0))

    def _submit(self, name: str, fn: Callable[[RunContext], Any],
                on_done: Callable[[Any], Any], *, serial: bool = False) -> Task:
        return self.projects.runner.submit(name, fn, on_done=on_done,
                                           on_error=lambda m: self.message.emit(m),
                                           serial=serial)
