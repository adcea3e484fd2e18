"""The cases of bench/generalise.py: questions made from the bank's templates about subjects,
people and windows picked at random (seeded) from one history, each with its expected outcome
and, when answered, its figure from git (bench/generalise_truth.py). Standard library only.

A case is left out (counted in `skipped`, never guessed) when its truth is not single: a
figure that differs between grouping people by name (git shortlog) and by person (names and
addresses linked), or between counting a directory as git log -- DIR does and following the
files moved into or out of it; a bus factor at exactly half; a ranking, a head count or a
bus factor of nothing.
"""

from __future__ import annotations

import random
import unicodedata
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

from bench import generalise_truth as truth
from bench import generalise_windows as windows
from bench.generalise_catalogue import Catalogue, Subject, misspell, one_edit
from bench.generalise_truth import History, Scope

# Window groups (bench/generalise_windows.py draws their phrases from the time corpus).
ANY_WINDOW = ["year", "quarter", "half", "month", "season", "months", "dates", "since", "relative"]
CALENDAR = ["year", "quarter", "half", "month"]
ABSENT_FIRST = ["Margarethe", "Thorvald", "Ysolde", "Bartholomew", "Ottoline", "Leopoldo"]
ABSENT_LAST = ["Vandersloot", "Quillfeather", "Oyelaran-Smythe", "Brightwater", "Nakashimova"]
# Three in four answers of 0 are drawn again: people and files are quiet in most windows, and
# a 0 says little about counting.
ZERO_REDRAWN = 0.75
# People ranked: everyone, or bots left out ("top contributors excluding bots").
TOPS = ("top", "top_humans")
UNKNOWN_WORDS = ["frobnicator", "quuxlet", "zanzibarite", "blorptastic", "wimbleweft"]


@dataclass
class Case:
    history: str
    template: str
    paraphrase: int
    question: str
    expect: str  # answered | clarification | no_match | refused
    metric: str
    time_phrase: str = ""
    subject_key: str | None = None  # module:REPO/PATH or repository:REPO; None: a person
    person_emails: list[str] = field(default_factory=list)
    window: tuple[int, int] | None = None  # epoch seconds, half-open
    figure: int | None = None
    top_names: list[str] = field(default_factory=list)
    salient: list[str] = field(default_factory=list)
    ties: list[list[str]] = field(default_factory=list)  # each tied candidate's subject keys
    # Another reading the docs allow: {"window": [start, end], "figure": ..., "top_names": ...}
    also: list[dict[str, Any]] = field(default_factory=list)
    # Two periods compared (metric "compared"): the earlier one, and its commits (`window`
    # and `figure` are the later one's, the window answered).
    before: tuple[int, int] | None = None
    before_figure: int | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def epoch(t: datetime) -> int:
    return int(t.timestamp())


def at(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


class Builder:
    """Makes one history's cases from the bank, at the clock NOW, with RNG."""

    def __init__(
        self, history: History, bank: dict[str, Any], now: datetime, rng: random.Random
    ) -> None:
        self.h, self.bank, self.now, self.rng = history, bank, now, rng
        self.cat = Catalogue(history)
        self.skipped: Counter[str] = Counter()

    def cases(self, count: int) -> list[Case]:
        out: list[Case] = []
        templates = self.bank["templates"]
        n = 0
        while len(out) < count and n < count * 20:
            template = templates[n % len(templates)]
            n += 1
            case = self.one(template)
            if case is not None:
                out.append(case)
        return out

    def one(self, template: dict[str, Any]) -> Case | None:
        rng = self.rng
        k = rng.randrange(len(template["paraphrases"]))
        paraphrase = template["paraphrases"][k]
        subject = self._subject(template.get("subject"))
        if subject is False:
            return self._skip(template, "no subject of the kind")
        person = self._person(template.get("person"), subject)
        if person is False:
            return self._skip(template, "no person of the kind")
        pair = self._pair(subject, person) if template["window"] == "pair" else None
        whole = asks_whole(paraphrase, template["metric"])
        w = pair[0] if pair else self._window(template, subject, person, whole)
        if w is None:
            return self._skip(template, "no window")
        phrase, start, end = w
        if whole and not phrase and pair is None:  # no time named: the whole history
            history = self._history(subject, person)
            if history is None:
                return self._skip(template, "truth not single (first change)")
            start = history
        s_ref = rng.choice(subject.refs) if isinstance(subject, Subject) else ""
        p_ref, pid = person if isinstance(person, tuple) else ("", None)
        question = _fill(paraphrase, s_ref, p_ref, phrase)
        if pair is not None:  # "{w} vs {v}": the two periods as drawn, in either order
            question = question.replace("{v}", pair[1][0])
        case = Case(
            self.h.name,
            template["id"],
            k,
            question,
            "answered",
            template["metric"],
            phrase,
            salient=[x for x in (s_ref, p_ref, phrase) if x],
        )
        if pair is not None:  # the second period is named too (time_phrase: the corpus's)
            case.salient.append(pair[1][0])
        wide = whole and not phrase and pair is None and end - start > windows.WIDEST
        made = self._expect(case, template, subject, (p_ref, pid), (start, end), wide)
        if made is not None and pair is not None:
            made = self._compared(made, template, subject, pid, pair)
        if made is not None and made.figure == 0 and self.rng.random() < ZERO_REDRAWN:
            return self._skip(template, "nothing in the window (drawn again)")
        return made

    def _skip(self, template: dict[str, Any], why: str) -> Case | None:
        self.skipped[f"{template['id']}: {why}"] += 1
        return None

    def _subject(self, kind: str | None) -> Subject | bool | None:
        if kind is None:
            return None
        if kind == "unknown":
            word = self.rng.choice(UNKNOWN_WORDS)
            return Subject("unknown", word, (f"the {word} package",), None, None)
        kinds = (
            ["repo", "package", "subpackage", "file", "tests", "docs"] if kind == "any" else [kind]
        )
        pool = [s for k in kinds for s in self.cat.subjects[k]]
        return self.rng.choice(pool) if pool else False

    def _person(
        self, kind: str | None, subject: Subject | bool | None
    ) -> tuple[str, str | None] | bool | None:
        """(the reference, the person id or None when nobody/several are meant); with a
        subject, one of the people who changed it."""
        rng, h, cat = self.rng, self.h, self.cat
        if kind is None:
            return None
        if kind == "absent":
            for _ in range(20):
                name = f"{rng.choice(ABSENT_FIRST)} {rng.choice(ABSENT_LAST)}"
                if not any(one_edit(name.casefold(), o) for o in cat.names):
                    return name, None
            return False
        if kind == "first_shared":
            if not cat.first_names:
                return False
            first = rng.choice(sorted(cat.first_names))
            return first.capitalize(), None
        if kind == "login":
            if not cat.logins:
                return False
            pid = rng.choice(sorted(cat.logins))
            return "@" + cat.logins[pid], pid
        handle = self._handle(kind)
        if handle is not None:
            return handle
        pool = cat.clean
        if isinstance(subject, Subject) and subject.narrow is not None:
            scope = subject.narrow
            touched = {h.person_of[c.name] for c in h.commits if scope.lines(c) is not None}
            pool = sorted(touched & set(cat.clean))
        if not pool:
            return False
        pid = rng.choice(pool)
        name = next(iter(h.names_of[pid]))
        if kind == "email":
            emails = sorted(e for e in h.emails_of[pid] if not truth.NOREPLY.match(e))
            return (rng.choice(emails), pid) if emails else False
        if kind == "misspelt":
            typo = misspell(name, cat.names)
            return (typo, pid) if typo else False
        return name, pid

    def _handle(self, kind: str) -> tuple[str, str | None] | bool | None:
        """A person named another way (bench.generalise_catalogue.Catalogue._handles): the
        name in the other Unicode form, an address's local part, a bot's name without
        "[bot]"; None for the other kinds."""
        rng, h, cat = self.rng, self.h, self.cat
        if kind == "decomposed":
            if not cat.decomposed:
                return False
            pid = rng.choice(cat.decomposed)
            name = next(iter(h.names_of[pid]))
            nfc = unicodedata.normalize("NFC", name)
            return unicodedata.normalize("NFD", name) if name == nfc else nfc, pid
        table = {"local_part": cat.local_parts, "bot": cat.bots}.get(kind)
        if table is None:
            return None
        if not table:
            return False
        pid = rng.choice(sorted(table))
        return table[pid], pid

    def _window(
        self,
        template: dict[str, Any],
        subject: Subject | bool | None,
        person: tuple[str, str | None] | bool | None,
        whole: bool = False,
    ) -> windows.Window | None:
        rng, now = self.rng, self.now
        group = template["window"]
        if group == "any":
            group = rng.choice([*ANY_WINDOW, "default"])
        elif group == "calendar":
            group = rng.choice(CALENDAR)
        if group in ("refuse_wide", "refuse_future", "unknown"):
            return windows.refused(group, now, rng), now, now
        if group == "default" and whole:  # its start: the first change (`_history`)
            return "", now - 365 * windows.DAY, now
        relevant = self._relevant(subject, person)
        birth = min((c.at for c in relevant), default=None)
        if group == "default":
            found: windows.Window | None = ("", now - 365 * windows.DAY, now)
        elif group == "relative":
            found = windows.relative_phrase(now, rng)
        else:
            pool = relevant if relevant and rng.random() < 0.85 else self.h.commits
            found = windows.anchored(group, at(rng.choice(pool).at), now, rng)
        if found is None or (
            birth is not None
            and epoch(found[1]) < birth
            and isinstance(subject, Subject)
            and subject.kind != "repo"
        ):
            return None
        return found

    def _history(
        self, subject: Subject | bool | None, person: tuple[str, str | None] | bool | None
    ) -> datetime | None:
        """The first change of what a question naming no time counts (the person's part of
        the subject when both are named), the same whether the subject's files are followed
        out of it or not; the clock's year when there is none (the default window stands,
        said); None when the two scopes disagree."""
        births = set()
        for scope in ("narrow", "wide"):
            relevant = self._relevant(subject, person, scope)
            births.add(min((c.at for c in relevant), default=None))
        if len(births) != 1:
            return None
        (birth,) = births
        return self.now - 365 * windows.DAY if birth is None else at(birth)

    def _pair(
        self, subject: Subject | bool | None, person: tuple[str, str | None] | bool | None
    ) -> tuple[windows.Window, windows.Window] | None:
        """Two periods of one calendar group about two commits' times, apart (neither
        overlapping the other), in the order drawn; None when none are found."""
        rng, now = self.rng, self.now
        group = rng.choice(CALENDAR)
        pool = self._relevant(subject, person) or self.h.commits
        for _ in range(10):
            one = windows.anchored(group, at(rng.choice(pool).at), now, rng)
            if one is None:
                continue
            # the second about a commit outside the first (of the same subject or person
            # when there is one)
            inside = range(epoch(one[1]), epoch(one[2]))
            outside = [c for c in pool if c.at not in inside] or [
                c for c in self.h.commits if c.at not in inside
            ]
            two = windows.anchored(group, at(rng.choice(outside).at), now, rng) if outside else None
            if two and (one[2] <= two[1] or two[2] <= one[1]):
                return one, two
        return None

    def _compared(
        self,
        case: Case,
        template: dict[str, Any],
        subject: Subject | bool | None,
        pid: str | None,
        pair: tuple[windows.Window, windows.Window],
    ) -> Case | None:
        """The later period is the window answered, its commits the figure; the earlier
        one's commits beside."""
        later, earlier = sorted(pair, key=lambda w: w[1], reverse=True)
        scopes: list[Scope | None] = (
            [None]
            if not isinstance(subject, Subject) or subject.kind == "repo"
            else [subject.narrow, subject.wide]
        )
        figures = [self._truth("commits", scopes, pid, epoch(w[1]), epoch(w[2]))
                   for w in (later, earlier)]  # fmt: skip
        if any(isinstance(f, str) for f in figures):
            return self._skip(template, "truth not single (grouping or moves)")
        (now_count, _), (then_count, _) = figures  # type: ignore[misc]
        case.window = (epoch(later[1]), epoch(later[2]))
        case.figure, case.before_figure = now_count, then_count
        case.before = (epoch(earlier[1]), epoch(earlier[2]))
        case.also = []
        return case

    def _relevant(
        self,
        subject: Subject | bool | None,
        person: tuple[str, str | None] | bool | None,
        scope_of: str = "narrow",
    ) -> list[truth.Commit]:
        h = self.h
        wanted: set[str] | None = None
        if isinstance(person, tuple):
            ref, pid = person
            if pid is not None:
                wanted = {pid}
            elif ref.casefold() in self.cat.first_names:
                wanted = self.cat.first_names[ref.casefold()]
        scope = getattr(subject, scope_of) if isinstance(subject, Subject) else None
        return [
            c
            for c in h.commits
            if (wanted is None or h.person_of[c.name] in wanted)
            and (scope is None or scope.lines(c) is not None)
        ]

    def _expect(
        self,
        case: Case,
        template: dict[str, Any],
        subject: Subject | bool | None,
        person: tuple[str, str | None],
        span: tuple[datetime, datetime],
        wide: bool = False,
    ) -> Case | None:
        """WIDE: a whole history wider than 400 days is asked (a clarification is due once
        the subject and person are found)."""
        h, (p_ref, pid), (start, end) = self.h, person, span
        group = template["window"]
        if group in ("refuse_wide", "refuse_future", "unknown"):
            case.expect = {
                "refuse_wide": "clarification",
                "refuse_future": "refused",
                "unknown": "no_match",
            }[group]
            return case
        case.window = (epoch(start), epoch(end))
        if isinstance(subject, Subject) and subject.kind in ("unknown", "shared_file"):
            case.expect = "no_match" if subject.kind == "unknown" else "clarification"
            case.ties = [
                [f"module:{h.name}/{s.path}"]
                for s in self.cat.subjects["shared_file"]
                if s.refs == subject.refs
            ]
            return case
        person_kind = template.get("person")
        if person_kind == "absent":
            case.expect = "no_match"
            return case
        if person_kind == "first_shared":
            namesakes = self.cat.first_names[p_ref.casefold()]
            awake = truth.active(h, namesakes, epoch(start), epoch(end))
            if len(awake) < 2:
                return self._skip(template, "fewer than two namesakes active")
            case.expect = "clarification"
            case.ties = [[truth.person_key(e) for e in sorted(h.emails_of[p])] for p in awake]
            return case
        if isinstance(subject, Subject):
            case.subject_key = (
                f"repository:{h.name}"
                if subject.kind == "repo"
                else f"module:{h.name}/{subject.path}"
            )
        if pid is not None:
            case.person_emails = sorted(h.emails_of[pid])
        if wide:  # the whole history, wider than 400 days: asked again
            case.expect = "clarification"
            return case
        scopes: list[Scope | None] = (
            [None]
            if not isinstance(subject, Subject) or subject.kind == "repo"
            else [subject.narrow, subject.wide]
        )
        value = self._truth(case.metric, scopes, pid, epoch(start), epoch(end))
        if isinstance(value, str):
            return self._skip(template, value)
        case.figure, case.top_names = value
        if template["window"] != "default" and not case.time_phrase and not _strict(case):
            # A question of no kind the docs give 365 days may be read over the last 30.
            month = epoch(self.now) - 30 * 86_400
            other = self._truth(case.metric, scopes, pid, month, epoch(self.now), quiet=0)
            if not isinstance(other, str):
                case.also.append(
                    {"window": [month, epoch(self.now)], "figure": other[0],
                     "top_names": other[1]}
                )  # fmt: skip
        return case

    def _truth(
        self,
        metric: str,
        scopes: list[Scope | None],
        pid: str | None,
        start: int,
        end: int,
        quiet: int | None = None,
    ) -> tuple[int, list[str]] | str:
        """(the figure, the top people's names) the same under every reading, or why not.
        QUIET: the figure of a window with no commit at all (None: no question is made of
        it). The docs' 30-day reading of a question naming no time may find the subject
        quiet: "what is the bus factor of the datastructures package?" is then rightly
        answered "no change in the window" (the judge reads it as 0), where this said there
        was no such reading and the answer was counted wrong against the year's figure."""
        bots = metric != "top_humans"  # "excluding bots": their commits are not ranked
        every = [truth.figures(self.h, sc, start, end, pid, by, bots) for sc in scopes
                 for by in ("name", "person")]  # fmt: skip
        if quiet is not None and metric not in TOPS and not any(f.commits for f in every):
            return quiet, []
        values = {_value(metric, f) for f in every}
        if len(values) != 1:
            return "truth not single (grouping or moves)"
        (value,) = values
        if value is None:
            return "nothing to rank or no bus factor"
        if metric in TOPS:
            names, count = value
            return count, sorted(names)
        return value, []


# The kinds of question the docs give the last 365 days when they name no time ("what
# changed", "what's new", "still"; "who" and "how many" about now: "who knows X best?", "how
# many active contributors"); "is X a knowledge silo?" is none of them.
STRICT = ("how many", "who", "what changed", "what's new", "what did", "number of")
# A count, ranking or list of people naming no time asks about the whole history of what it
# names (docs/graphql.md, engine/resolving/wholehistory.py): from its first change (the
# person's there, when one is named) up to the clock, answered when that fits in 400 days,
# else asked again (a clarification is due). Words about now keep the default year.
WHOLE_METRICS = ("commits", "people", "lines", "top", "top_humans")
WHOLE_STARTS = ("how many", "how much", "who", "number of", "count ")
ABOUT_NOW = (" still ", " knows ", " know ", " review", " expert", " maintain", " active ")


def asks_whole(paraphrase: str, metric: str) -> bool:
    text = f" {paraphrase.casefold()} "
    return (
        metric in WHOLE_METRICS
        and paraphrase.casefold().removeprefix("{w}, ").startswith(WHOLE_STARTS)
        and not any(w in text for w in ABOUT_NOW)
    )


def _strict(case: Case) -> bool:
    text = case.question.casefold()
    return text.startswith(STRICT) or " still " in text


def _value(metric: str, f: truth.Figures) -> Any:
    if metric in ("commits", "changes", "compared"):
        return f.commits
    if metric == "lines":
        return f.lines
    if metric == "people":
        return f.people or None
    if metric in TOPS:
        return f.top if f.top[1] else None
    return f.bus_factor


def _fill(paraphrase: str, s: str, p: str, w: str) -> str:
    text = paraphrase.replace("{s}", s).replace("{p}", p)
    if w:
        text = text.replace("{W}", w[0].upper() + w[1:]).replace("{w}", w)
    else:
        text = text.replace("{W}, ", "").replace(" {w}", "").replace("{w}", "")
    return text[0].upper() + text[1:] if text.startswith(("{", " ")) else text
