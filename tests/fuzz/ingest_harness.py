"""Fuzzing the ingest layer (issue 15, item 7c): seed files of every supported kind, byte
mutations of them, and a runner that feeds each input to a worker process with a time bound.

The contract under test: every input gives a Document or a ClearNoteError whose message
names the file; never another exception, a hang past the time bound, or a crash."""

from __future__ import annotations

import io
import json
import os
import random
import select
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("ingest_worker.py")
SEED_TEXT = ("Patient: Zebulon Quill   MRN 4451207   DOB 1961-03-14\n"
             "Seen by Dr. Ellery Marlo at Larkspur Clinic for a cough.\n\n"
             "Plan: amoxicillin 500 mg three times daily.\n")


# ------------------------------------------------------------------------------ seeds


def make_seeds(folder: Path) -> dict[str, bytes]:
    """Small valid files of every kind ingest reads: name -> bytes."""
    from PIL import Image, ImageDraw

    from tests.fixtures_docs import PageSpec, TextLine, write_docx, write_image_pdf, write_text_pdf

    folder.mkdir(parents=True, exist_ok=True)
    seeds: dict[str, bytes] = {}
    spec = PageSpec(lines=[TextLine(72, 720, line) for line in SEED_TEXT.splitlines() if line])
    seeds["text.pdf"] = write_text_pdf(folder / "text.pdf", [spec], extras=False).read_bytes()
    seeds["extras.pdf"] = write_text_pdf(folder / "extras.pdf", [spec]).read_bytes()
    seeds["docx"] = write_docx(folder / "letter.docx").read_bytes()

    image = Image.new("L", (180, 40), 255)
    ImageDraw.Draw(image).text((4, 12), "MRN 4451207 Quill", fill=0)
    seeds["scan.pdf"] = write_image_pdf(folder / "scan.pdf", [image], dpi=72).read_bytes()
    for fmt, name in (("PNG", "png"), ("JPEG", "jpeg"), ("BMP", "bmp"), ("GIF", "gif")):
        buf = io.BytesIO()
        image.save(buf, fmt)
        seeds[name] = buf.getvalue()
    buf = io.BytesIO()
    image.save(buf, "TIFF", save_all=True, append_images=[image.rotate(90, expand=True)],
               compression="tiff_deflate")
    seeds["tiff"] = buf.getvalue()
    seeds["utf8.txt"] = SEED_TEXT.encode("utf-8")
    seeds["cp1252.txt"] = "Réf: Zoë Ménard, née 1961 – “urgent”\r\n".encode("cp1252")
    seeds["utf16.txt"] = SEED_TEXT.encode("utf-16")
    return seeds


# -------------------------------------------------------------------------- mutations


def flip(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def overwrite(data: bytes, rng: random.Random) -> bytes:
    """Interesting values (0, 0xff, big ints) over a few bytes: sizes and offsets break."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not out:
            break
        at = rng.randrange(len(out))
        value = rng.choice([b"\x00", b"\xff", b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80",
                            b"9999999", b"-1", b"0", b"/Length 0", b"%%EOF", b"\x7f\xff"])
        out[at:at + len(value)] = value
    return bytes(out)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(1, max(2, len(data)))]


def cut(data: bytes, rng: random.Random) -> bytes:
    if len(data) < 4:
        return data
    a = rng.randrange(len(data))
    b = min(len(data), a + rng.randint(1, max(1, len(data) // 4)))
    return data[:a] + data[b:]


def splice(data: bytes, rng: random.Random, other: bytes) -> bytes:
    """A chunk of another seed inserted into this one (or replacing its tail)."""
    a = rng.randrange(len(other)) if other else 0
    chunk = other[a:a + rng.randint(1, 4096)]
    at = rng.randrange(len(data) + 1)
    return data[:at] + chunk + (data[at:] if rng.random() < 0.5 else b"")


def duplicate(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    a = rng.randrange(len(data))
    chunk = data[a:a + rng.randint(1, 512)]
    return data[:a] + chunk * rng.randint(2, 8) + data[a:]


MUTATORS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    flip, overwrite, truncate, cut, duplicate)


def mutate(seeds: dict[str, bytes], rng: random.Random) -> tuple[str, bytes]:
    """(label, bytes): random bytes, or one to four mutations of a random seed."""
    roll = rng.random()
    if roll < 0.08:
        return "random", rng.randbytes(rng.randint(1, 4096))
    if roll < 0.12:  # a real magic number followed by noise
        magic = rng.choice([b"%PDF-1.7\n", b"\x89PNG\r\n\x1a\n", b"II*\x00", b"MM\x00*",
                            b"PK\x03\x04", b"\xff\xd8\xff", b"GIF89a", b"BM", b"RIFF"])
        return "magic+random", magic + rng.randbytes(rng.randint(0, 2048))
    name = rng.choice(sorted(seeds))
    data = seeds[name]
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.2:
            data = splice(data, rng, seeds[rng.choice(sorted(seeds))])
        else:
            data = rng.choice(MUTATORS)(data, rng)
    return name, data or b"\x00"


# ----------------------------------------------------------------------------- runner


@dataclass
class Finding:
    signature: str
    label: str
    detail: str
    data: bytes = field(repr=False, default=b"")


class IngestRunner:
    """Feeds inputs to a worker process; restarts it after a crash or a hang."""

    def __init__(self, workdir: Path, *, timeout: float = 30.0) -> None:
        self.workdir = workdir
        self.timeout = timeout
        self.proc: subprocess.Popen[str] | None = None
        self.count = 0

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, OMP_THREAD_LIMIT="1", PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, str(WORKER)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=env, cwd=ROOT)
        assert proc.stdout is not None
        if not self._readable(proc, 120.0) or "ready" not in proc.stdout.readline():
            proc.kill()
            raise RuntimeError("the ingest fuzz worker did not start")
        return proc

    @staticmethod
    def _readable(proc: subprocess.Popen[str], timeout: float) -> bool:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], timeout)
        return bool(ready)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, data: bytes, label: str = "", suffix: str = ".bin") -> Finding | None:
        """None when the contract held for ``data``, else what went wrong."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        self.count += 1
        # A file name a patient could have: the error must name it.
        path = self.workdir / f"Quill_Zebulon_{self.count:06d}{suffix}"
        path.write_bytes(data)
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(f"{path}\n")
            proc.stdin.flush()
            if not self._readable(proc, self.timeout):
                self.close()
                return Finding(f"hang>{self.timeout:g}s ({label})", label, "no answer", data)
            line = proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        finally:
            path.unlink(missing_ok=True)
        if not line:
            code = proc.wait()
            self.proc = None
            return Finding(f"crash rc={code} ({label})", label, "worker died", data)
        answer = json.loads(line)
        if answer["outcome"] == "document":
            return None
        if answer["outcome"] == "error":
            if answer["named"]:
                return None
            return Finding(f"unnamed {answer['type']} at {answer['where']}", label,
                           "error message does not name the file", data)
        return Finding(f"{answer['type']} at {answer['where']}", label,
                       answer.get("traceback", ""), data)


def run_random(seeds: dict[str, bytes], runner: IngestRunner, *, seed: int, count: int | None,
               seconds: float | None, on_finding: Callable[[Finding], None]) -> int:
    """The long runner's loop: random mutations until ``count`` inputs or ``seconds``."""
    import time

    rng = random.Random(seed)
    deadline = time.monotonic() + seconds if seconds else None
    tried = 0
    while (count is None or tried < count) and (deadline is None or time.monotonic() < deadline):
        label, data = mutate(seeds, rng)
        suffix = rng.choice([".pdf", ".docx", ".png", ".tif", ".txt", ""])
        finding = runner.run(data, label, suffix)
        tried += 1
        if finding is not None:
            on_finding(finding)
    return tried


def scratch_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="clearnote-fuzz-"))
