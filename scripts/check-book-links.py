#!/usr/bin/env python3
"""Checks every link between the pages of the built book.

Usage: python3 scripts/check-book-links.py docs/book

Reads each HTML page mdbook wrote (print.html, toc.html and 404.html are generated copies and
are skipped), follows every href and src that points inside the book, and reports a target file
that does not exist or an anchor (#name) that the target page does not define. Links to other
sites (http:, https:, mailto:) are not fetched: the book builds offline. Exits 1 and lists every
broken link as `page: link (reason)`; exits 0 silently when all resolve.
"""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

SKIPPED_PAGES = {"print.html", "toc.html", "404.html"}


class Page(HTMLParser):
    """The links and the anchor ids of one HTML page."""

    def __init__(self):
        super().__init__()
        self.links = []
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src"):
                self.links.append(value)
            elif name == "id" or (name == "name" and tag == "a"):
                self.ids.add(value)


def parse(path, cache):
    if path not in cache:
        page = Page()
        page.feed(path.read_text(encoding="utf-8"))
        cache[path] = page
    return cache[path]


def broken_links(book):
    cache = {}
    problems = []
    for page_path in sorted(book.rglob("*.html")):
        if page_path.name in SKIPPED_PAGES and page_path.parent == book:
            continue
        for link in parse(page_path, cache).links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("javascript:"):
                continue
            target = page_path if not parts.path else (page_path.parent / unquote(parts.path))
            if target.is_dir():
                target = target / "index.html"
            where = f"{page_path.relative_to(book)}: {link}"
            try:
                target.resolve().relative_to(book.resolve())
            except ValueError:
                problems.append(f"{where} (points outside the book)")
                continue
            if not target.is_file():
                problems.append(f"{where} (no such page)")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html":
                if fragment not in parse(target, cache).ids:
                    problems.append(f"{where} (no anchor #{fragment})")
    return problems


def main(argv):
    if len(argv) != 2:
        print("usage: check-book-links.py BOOK_OUTPUT_DIR", file=sys.stderr)
        return 2
    book = Path(argv[1])
    if not (book / "index.html").is_file():
        print(f"check-book-links: {book} holds no built book (run mdbook build first)", file=sys.stderr)
        return 2
    problems = broken_links(book)
    for problem in problems:
        print(f"broken link: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
