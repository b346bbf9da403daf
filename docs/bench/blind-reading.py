#!/usr/bin/env python3
"""A blind reading sheet: two generators' subjects for the same test commits, shuffled, beside each diff.

    docs/bench/blind-reading.py REPO BEFORE.jsonl AFTER.jsonl SHEET.txt KEY.json [--changed-only]

BEFORE and AFTER are `commitflow eval --repo REPO --out FILE.jsonl` runs of the same test commits (two builds, or
two settings). Of every 6th test commit (50 at most) the sheet shows the numstat, the first 25 changed lines, the
real subject and the generated subjects, one per line, shuffled, each with an id; KEY.json says which run wrote
which id, so the reader marks the sheet before looking. --changed-only keeps the commits whose subjects differ.
"""
import json, random, subprocess, sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
if len(args) != 5:
    sys.exit(__doc__)
repo, before, after, sheet, keyfile = args
changed_only = "--changed-only" in sys.argv
headline = lambda m: m.splitlines()[0] if m else ""
A = [json.loads(l) for l in open(before)]
B = {x["sha"]: x for x in (json.loads(l) for l in open(after))}
rnd = random.Random(repo)
out, key = [], {}
for x in A[::6][:50]:
    sha = x["sha"]
    y = B.get(sha)
    subjects = sorted({headline(x["message"])} | ({headline(y["message"])} if y else set()))
    if changed_only and len(subjects) < 2:
        continue
    git = lambda *a: subprocess.run(["git", "--git-dir", repo, "show", "--format=", "-M", *a, sha],
                                    capture_output=True, text=True, errors="replace").stdout
    stat = git("--numstat").strip().splitlines()
    changed = [l[:140] for l in git("-U0").splitlines()
               if l[:1] in "+-" and not l.startswith("+++") and not l.startswith("---")][:25]
    rnd.shuffle(subjects)
    block = [f"=== commit {sha[:10]}", "files (added/removed lines):"] + ["  " + s for s in stat[:15]]
    block += (["  …"] if len(stat) > 15 else []) + ["first changed lines:"] + ["  " + c for c in changed]
    block.append(f"real subject: {headline(x['reference'])}")
    for s in subjects:
        iid = f"{sha[:10]}-{len(key)}"
        key[iid] = {"sha": sha, "subject": s, "before": s == headline(x["message"]),
                    "after": bool(y) and s == headline(y["message"])}
        block.append(f"candidate {iid}: {s}")
    out.append("\n".join(block))
open(sheet, "w").write("\n\n".join(out) + "\n")
json.dump(key, open(keyfile, "w"), indent=0)
print(f"{len(out)} commits, {len(key)} subjects in {sheet}; the key is in {keyfile}")
