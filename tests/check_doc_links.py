#!/usr/bin/env python3
"""Every relative link of README.md, CONTRIBUTING.md and docs/*.md resolves: the file exists and a
#anchor names one of its headings (GitHub's slugs). TAP output. usage: check_doc_links.py ROOT"""
import glob
import os
import re
import sys

root = sys.argv[1]
pages = ["README.md", "CONTRIBUTING.md"] + sorted(
    os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))


def slugs(path):
    out = set()
    inside = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            inside = not inside
        if not inside and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            slug = re.sub(r"[^\w\- ]", "", title).replace(" ", "-")
            out.add(slug)
    return out


bad = []
count = 0
for page in pages:
    text = open(os.path.join(root, page), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://", target) or target.startswith("mailto:"):
            continue
        count += 1
        path, _, anchor = target.partition("#")
        full = os.path.normpath(os.path.join(root, os.path.dirname(page), path)) if path else \
            os.path.join(root, page)
        if not os.path.exists(full):
            bad.append(f"{page}: {target} (no such file)")
        elif anchor and full.endswith(".md") and anchor not in slugs(full):
            bad.append(f"{page}: {target} (no such heading)")
print("1..1")
if bad:
    print(f"not ok 1 - {len(bad)} of {count} links do not resolve")
    for b in bad:
        print("# " + b)
else:
    print(f"ok 1 - all {count} links of {len(pages)} pages resolve")
