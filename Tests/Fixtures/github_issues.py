#!/usr/bin/env python3
"""Writes N GitHub-like issues as JSON, deterministically (issue 28's file of nested records):
a nested `user`, `assignee` an object or null, `milestone` an object or null with a null
`due_on` inside some, `labels` a list of objects.

    github_issues.py [N] [--wrapped]   # --wrapped: {"data": {"items": [...]}, "meta": {...}}
"""
import json
import random
import sys


def issues(count):
    rng = random.Random(28)
    logins = ["zoë", "octocat", "hubot", "mona", "defunkt", "pjhyett", "wycats", "ezmobius"]
    milestones = [
        {"title": "v1.0", "due_on": "2024-03-31T00:00:00Z", "state": "closed", "number": 1},
        {"title": "v2.0", "due_on": None, "state": "open", "number": 2},
        {"title": "v3.0", "due_on": "2024-06-30T00:00:00Z", "state": "open", "number": 3},
    ]
    label_set = [{"name": "bug", "color": "d73a4a"}, {"name": "docs", "color": "0075ca"},
                 {"name": "good first issue", "color": "7057ff"}, {"name": "wontfix", "color": "ffffff"}]
    result = []
    for n in range(count):
        login = rng.choice(logins)
        user = {"login": login, "id": 5000 + logins.index(login), "type": "User", "site_admin": False}
        assignee = None
        if rng.random() < 0.75:
            other = rng.choice(logins)
            assignee = {"login": other, "id": 5000 + logins.index(other), "type": "User", "site_admin": other == "hubot"}
        milestone = dict(rng.choice(milestones)) if rng.random() < 0.65 else None
        labels = [dict(label) for label in rng.sample(label_set, rng.randint(0, 3))]
        state = rng.choice(["open", "open", "closed"])
        day = 1 + n % 28
        result.append({
            "id": 1000000 + n,
            "number": n + 1,
            "title": f"Issue {n + 1}: " + rng.choice(["crash on start", "typo in README", "slow search", "add CSV export", "wrong count"]),
            "state": state,
            "user": user,
            "assignee": assignee,
            "milestone": milestone,
            "labels": labels,
            "comments": rng.randint(0, 40),
            "created_at": f"2024-0{1 + n % 9}-{day:02d}T10:00:00Z",
            "closed_at": f"2024-10-{day:02d}T12:00:00Z" if state == "closed" else None,
            "body": "Steps to reproduce:\n1. start\n2. watch it " + rng.choice(["fail", "hang", "work"]),
        })
    return result


if __name__ == "__main__":
    count = int(next((a for a in sys.argv[1:] if a.isdigit()), "200"))
    records = issues(count)
    if "--wrapped" in sys.argv:
        print(json.dumps({"meta": {"total": count, "page": 1, "links": [{"rel": "next", "href": "x"}]},
                          "data": {"items": records, "kind": "issues"}}, ensure_ascii=False))
    else:
        print(json.dumps(records, ensure_ascii=False, indent=1))
