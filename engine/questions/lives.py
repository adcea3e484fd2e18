"""The life of a file or folder: when and by whom it was created, deleted, moved, or became a
package ("when was core.py created?", "who killed _unicodefun.py?", "where did
tests/typing_example.py go?", "when did datastructures.py become a package?", "when did the
code move to src/?"), read from what the git import keeps of each path
(engine/domain/lives.py; which commit a question asks for: engine/questions/lifesteps.py).

The rule, as git gives it (`git log --no-merges --full-history --diff-filter=A|D|R`):
- created (added, introduced, made): the commit that added the path, following a rename only
  where git detected one, and then said with the path it came from and when (click's
  core.py: click/core.py written by 0ed40c8 on 2014-04-26, from click.py, added by 4101de3 on
  2014-04-24; moved to src/click/core.py by 079f91a on 2020-03-06);
- removed (deleted, killed, dropped, got rid of): the commit that deleted the path; the last
  change of a subject is its removal only when it deleted it (a file moved away was not);
- moved (renamed, "where did X go?"): the commit that moved it, with the moves after it;
- became a package (turned into a folder, split into a package): the first commit writing
  the folder, at any of its paths, as a folder;
- a path that lived more than once (created, deleted or moved away, created again): its
  latest life, the last creation and the deletion after it, said with its earlier lives
  (requests' test_requests.py: moved to tests/ by 18b26d2 in 2016, after a first life
  from 75b499d to its move by 0b9a2a1 in 2012);
- one file became another ("when did CHANGELOG.rst become CHANGELOG.md?"): git's rename, or
  the one commit deleting the first and adding the second; two commits are both said.
The answer reads that commit's second alone (as the first change does,
engine/questions/firstchange.py), lists the commit and states it: when, what, its hash and
its author, closing to the listed change; the other steps are said with theirs, as the
import recorded them. Nothing kept for the path: no answer here (a first change answers
"created" as before; anything else ends as it did).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from engine.domain.contract import ClaimedFact
from engine.domain.facts import FactKind
from engine.domain.lives import Step
from engine.domain.models import StoredSubject
from engine.domain.timecontext import iso
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also
from engine.questions.changes import listed
from engine.questions.firstchange import SECOND  # the one second a single commit is read in
from engine.questions.lifesteps import Life, found_life

_SAID = {
    "made": "added", "removed": "deleted", "became": "first written as a folder",
    "moved": "moved", "into_src": "moved into src/", "kept": "added (it was never deleted)",
    "unmoved": "added (git finds no move of it)", "moved_away": "moved",
    "replaced": "written in place of the file it replaced",
}  # fmt: skip


# The event as asked, said when no path was named.
_ASKED = {"removed": "When a path was deleted", "moved": "When a path was moved",
          "became": "When a path became a folder"}  # fmt: skip


class Lives(Question):
    """ "When was X created / deleted / moved, when did X become a package?": the commit,
    read in its second and stated."""

    name = "life"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        event = asked.understood.life
        if event is None or asked.part:
            return None
        refs = asked.understood.references
        life = await found_life(reader.graph, event, refs, asked.subjects)
        if life is None and event == "made":
            return None  # its first change answers (engine/questions/firstchange.py)
        if life is None:  # never the changes of another window in its place
            return Found(unanswerable=_unfound(event, refs, asked.named))
        if life.event == "unreplaced":  # two commits: each said, neither is the answer
            return Found(unanswerable=_unreplaced(life))
        at = datetime.fromisoformat(life.step.at)
        if asked.ranged and not asked.window.start <= at < asked.window.end:
            return Found(unanswerable=_outside(life, at, asked.window.start, asked.window.end))
        note = (
            f"Asked when {life.step.path} was {_SAID[life.event]}: the commit that did it "
            f"({life.step.sha}, as git log --no-merges --full-history gives it) is read in "
            f"its second, {iso(at)} to {iso(at + SECOND)}."
        )
        return Found(start=at, end=at + SECOND, notes=(note,), kept=life)

    def judgment(self, case: Case) -> str | None:
        life = case.inputs.kept.get(self.name)
        if not isinstance(life, Life):
            return None
        shown, _ = listed(case.facts)
        change = next((c for c in shown if life.step.sha[:7] in c.ref), None)
        if change is None:
            return None
        step = life.step
        what = f'{iso(change.at)}: "{change.title}" ({step.sha[:7]}) by {change.by_name or step.by}'
        if life.event == "removed":
            gone = f"{step.path} was deleted at {what}."
            return f"{gone} {_lived(life)}" if life.lived else gone
        if life.event == "replaced":
            return _replaced(life, what)
        if life.event in ("moved", "into_src", "moved_away"):
            lead = f"{step.came_from} was not deleted: it " if life.event == "moved_away" else ""
            into = "into src/, as" if life.event == "into_src" else "to"
            said = f"{lead or step.came_from + ' '}moved {into} {step.path}, at {what}."
            before = _steps(life.earlier, "; ", moves=True)
            said += f" Before that: {before}." if before else ""
        else:
            said = _made(life, what)
        moves = _steps(life.later, "; then to ")
        said = f"{said} Since then it moved to {moves}." if moves else said
        return f"{said} {_lived(life)}" if life.lived else said

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        if not isinstance(case.inputs.kept.get(self.name), Life):
            return []
        return claim_also([f for f in case.facts if f.kind is FactKind.CHANGES], claimed)


def _unfound(event: str, references: Sequence[str], named: Sequence[StoredSubject]) -> str:
    """What is said when the event asked is not found: what was looked for, and where git
    lists it."""
    if not references and event != "into_src":  # "what moved in 2025?": no one path
        return (
            f"{_ASKED[event]} is asked of one file or folder, and none was named: ask it of "
            f'one ("when was X {_ASKED[event].split()[-1]}?"); a list of such changes is not '
            "computed here."
        )
    what = ", ".join(references) or ", ".join(s.name for s in named) or "what was named"
    if event == "removed":
        return (
            f"No one deleted file is recorded for {what}: none of that name, or several (name "
            "it by its whole path); `git log --no-merges --full-history --diff-filter=D -- "
            "PATH` lists a file's deletion."
        )
    if event == "became":
        return f"{what} is a file, not a folder: no commit made it a package or a folder."
    if event == "replaced":
        return (
            f"No one commit is recorded making {' into '.join(references)}: the first must "
            "name one file the repository deleted and the second one it has now, each by its "
            "name or path; `git log --no-merges --full-history --diff-filter=AD -- OLD NEW` "
            "lists their deletion and addition."
        )
    if event == "into_src":
        return (
            f"No package of {what} is recorded moving into src/: none of its packages there "
            "came from another path by git's rename detection."
        )
    return f"No move of {what} is recorded here (its paths were not kept by this import)."


def _replaced(life: Life, what: str) -> str:
    """One file made another by one commit: it deleted the first and added the second, or
    wrote it again where another line of work had added it first (said with that one)."""
    step = life.step
    wrote, first = "added", ""
    if life.earlier:
        was = life.earlier[0]
        wrote, first = "wrote", f"first added at {was.at[:10]} ({was.sha[:7]}, by {was.by}); "
    return (
        f"{step.came_from} became {step.path} at {what}: that commit deleted {step.came_from} "
        f"and {wrote} {step.path} ({first}git's rename detection does not pair them: their "
        "texts differ)."
    )


def _unreplaced(life: Life) -> str:
    """The file asked became another, but no one commit deleted it and added the other: both
    commits said, neither given as the answer."""
    added, gone = life.step, life.earlier[0]
    return (
        f"No one commit made {gone.path} into {added.path}: {gone.path} was deleted at "
        f"{gone.at[:10]} ({gone.sha[:7]}, by {gone.by}) and {added.path} added at "
        f"{added.at[:10]} ({added.sha[:7]}, by {added.by})."
    )


def _outside(life: Life, at: datetime, start: datetime, end: datetime) -> str:
    """The event asked happened, but not in the time the question named ("who deleted
    _unicodefun.py in 2023?": 2022): said with its date, never answered over its own second
    as if the time named had not been."""
    step = life.step
    return (
        f"{step.path} was not {_SAID[life.event]} from {iso(start)} to {iso(end)}, the time "
        f"asked: it was at {iso(at)} ({step.sha[:7]}, by {step.by}). Ask without the time, "
        "or for a time holding that date."
    )


def _made(life: Life, what: str) -> str:
    """A path's creation: added there, or written by a move from the paths it came from."""
    step = life.step
    form = " as a folder" if life.event == "became" else ""
    now = life.later[-1].path if life.later else step.path
    head = {
        "kept": f"{now} was never deleted, the repository has it: ",
        "unmoved": f"{now} never moved: ",
    }
    lead = head.get(life.event, "")
    again = any(one.born.path == step.path for one in life.lived)
    if life.event == "kept" and again:  # README.md: deleted in 2018, added again in 2024
        lead = f"{now} as the repository has it was never deleted: "
    if life.event == "unmoved":
        lead += "git's rename detection finds no earlier path; "
    if not step.came_from:
        return f"{lead}{step.path} was added{' again' if again else ''}{form} at {what}."
    came = ", which came from ".join(s.came_from for s in (step, *life.earlier[:-1]))
    first = life.earlier[-1] if life.earlier else None
    origin = f", added at {first.at[:10]} ({first.sha[:7]}, by {first.by})" if first else ""
    written = "written again" if again else "first written"
    return (
        f"{lead}{step.path} was {written}{form} at {what}; git's rename detection says "
        f"it came from {came}{origin}."
    )


def _lived(life: Life) -> str:
    """The earlier lives of the path asked (and of the paths it came from): the answer is of
    its latest life, the one the path's last creation began ("test_requests.py was added
    again at 2012-12-17 (82cce02) ... after an earlier life: added at 2011-02-13 (75b499d,
    by Kenneth Reitz), moved to tests/test_requests.py at 2012-02-15 (0b9a2a1, ...)")."""
    said = []
    for one in life.lived:
        born, ended = one.born, one.ended
        how = f"written from {born.came_from}" if born.came_from else "added"
        end = f"moved to {one.moved_to}" if one.moved_to else "deleted"
        said.append(
            f"{born.path}, {how} at {born.at[:10]} ({born.sha[:7]}, by {born.by}), {end} at "
            f"{ended.at[:10]} ({ended.sha[:7]}, by {ended.by})"
        )
    return f"That is its latest life; it lived before: {'; '.join(said)}."


def _steps(steps: Sequence[Step], joined: str, *, moves: bool = False) -> str:
    """Steps said with their dates, hashes and authors ("src/click/core.py at 2020-03-06
    (079f91a, by David Lord)"); `moves`: each with the path it came from."""
    return joined.join(
        f"{f'{s.came_from} to ' if moves and s.came_from else ''}{s.path} at {s.at[:10]} "
        f"({s.sha[:7]}, by {s.by})"
        for s in steps
    )
