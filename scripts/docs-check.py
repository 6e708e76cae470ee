#!/usr/bin/env python3
"""Checks that the README and docs/ still match the tree and the binary.

    python3 scripts/docs-check.py target/debug/hatstand

- Every relative link (`[text](path)`, `[text](path#anchor)`, `<img src>`)
  names a file or folder that exists, and an anchor into a Markdown page
  names one of its headings.
- Every command of the binary quoted in code (`hatstand bench --grow N`,
  `cargo run -- openapi --out ...`) names a subcommand it has and flags
  that subcommand's `--help` lists; a flag quoted on its own
  (`--smtp-listen`) is one of the binary's, unless the same code names
  another tool.
- Every path of the tree quoted in code (`scripts/fuzz.sh`,
  `deploy/failover-drill.sh`, `src/games/clock.rs`) exists.

Prints each broken reference as `file:line: what` and exits 1 if any.
"""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|<img[^>]*\ssrc=\"([^\"]+)\"")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# A path of the tree: a top-level folder of the repository, then a name.
TOP = sorted(
    p.name
    for p in ROOT.iterdir()
    if p.is_dir() and p.name not in {"target", ".git"} and not p.name.startswith(".hatstand")
)
PATH = re.compile(
    r"(?<![\w./-])((?:%s)/[\w./-]*[\w])" % "|".join(re.escape(t) for t in TOP)
)
# Other tools whose flags the docs quote next to their name.
OTHER_TOOLS = re.compile(
    r"\b(cargo (?!run)\w+|psql|pg_\w+|pgbench|patronictl|curl|tsc|npm|npx|docker|"
    r"st run|schemathesis|pip|python3? -m|git|chromium|lighthouse|openssl|swaks|TypeScript)\b"
)


def helps(binary):
    """The flags of each subcommand ('' is the binary itself)."""

    def flags(args):
        out = subprocess.run(
            [binary, *args, "--help"], capture_output=True, text=True, check=True
        ).stdout
        return out, set(FLAG.findall(out)) | {"--help"}

    def subcommands(out):
        if "Commands:" not in out:
            return []
        listed = out.split("Commands:")[1].split("Options:")[0]
        return [c for c in re.findall(r"^  ([a-z][a-z-]*)\s", listed, re.M) if c != "help"]

    top, top_flags = flags([])
    table = {"": top_flags}
    for command in subcommands(top):
        out, own = flags([command])
        table[command] = own | top_flags
        # One level of nested subcommands (`hatstand log monitor`).
        for sub in subcommands(out):
            table[f"{command} {sub}"] = flags([command, sub])[1] | own | top_flags
    return table


def slug(heading):
    """GitHub's anchor for a heading."""
    text = re.sub(r"`|\*|_(?=\w)|(?<=\w)_", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page):
    found, seen = set(), {}
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"#{1,6}\s+(.*)", line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def code_of(text):
    """(line number, code) for each code span and each line of a code block."""
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            yield number, line
        else:
            for span in CODE_SPAN.findall(line):
                yield number, span


def paragraph_of(text):
    """The paragraph (lines between blank lines) of each line, by number."""
    lines = text.splitlines()
    found, start = {}, 0
    for i, line in enumerate(lines + [""]):
        if not line.strip():
            for n in range(start, i):
                found[n + 1] = "\n".join(lines[start:i])
            start = i + 1
            found[i + 1] = ""
    return found


def command_flags(code, table):
    """Broken flags of a `hatstand` command in `code`, if it is one."""
    # A command line: `hatstand ...` (perhaps as target/release/hatstand)
    # or `cargo run [--release] -- ...`, at the start of the code.
    m = re.match(r"\s*(?:\$\s*)?(?:[\w./]*/)?(?:hatstand(?=\s|$)|cargo run\b[^|;&]*?--(?=\s))\s*(.*)", code)
    if not m:
        return None
    words = m.group(1).split()
    command = ""
    if len(words) > 1 and f"{words[0]} {words[1]}" in table:
        command = f"{words[0]} {words[1]}"
    elif words and words[0] in table:
        command = words[0]
    elif words and re.fullmatch(r"[a-z][a-z-]+", words[0]) and not words[0].startswith("-"):
        return [f"no subcommand `{words[0]}`"]
    rest = " ".join(words)
    rest = re.split(r"[|;&]|\s&&\s", rest)[0]
    return [f"`{f}` is not in `hatstand {command} --help`".replace("  ", " ")
            for f in FLAG.findall(rest) if f not in table[command]]


def check(pages, table):
    problems = []
    all_flags = set().union(*table.values())
    for page in pages:
        text = page.read_text()
        where = page.relative_to(ROOT)
        in_block = False
        for number, line in enumerate(text.splitlines(), 1):
            if line.lstrip().startswith("```"):
                in_block = not in_block
            if in_block:
                continue
            for m in LINK.finditer(line):
                target = m.group(1) or m.group(2)
                if re.match(r"[a-z]+:", target) or target.startswith("//"):
                    continue
                path, _, anchor = target.partition("#")
                resolved = (page.parent / path).resolve() if path else page
                if not resolved.exists():
                    problems.append(f"{where}:{number}: link to {target}: no such file")
                elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                    problems.append(f"{where}:{number}: link to {target}: no such heading")
        paragraphs = paragraph_of(text)
        for number, code in code_of(text):
            broken = command_flags(code, table)
            if broken is not None:
                problems += [f"{where}:{number}: {b} (in `{code.strip()}`)" for b in broken]
            elif not OTHER_TOOLS.search(paragraphs[number]) and re.fullmatch(r"\s*--[a-z][\w-]*(?:[ =]\S+)?\s*", code):
                flag = FLAG.findall(code)[0]
                if flag not in all_flags:
                    problems.append(f"{where}:{number}: `{flag}` is no flag of hatstand")
            for m in PATH.finditer(code):
                path = m.group(1)
                if any(c in path for c in "*<>{}") or "..." in path:
                    continue
                # What a command writes need not exist.
                if re.search(r"(?:-o|--out|--output|>)\s*$", code[: m.start()]):
                    continue
                # A tree's lines name paths inside a workspace member too.
                if not any((base / path).exists() for base in (ROOT, ROOT / "engine")):
                    problems.append(f"{where}:{number}: `{path}` does not exist")
    return problems


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/debug/hatstand")
    table = helps(binary)
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    problems = check(pages, table)
    for problem in problems:
        print(problem)
    print(f"{len(pages)} pages, {len(table) - 1} subcommands: {len(problems)} broken references")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
