"""Answers for the view cache's reads (``service/usecases/view_cache.py``), serialized once.

A cached read is the same object until what it shows changes, yet FastAPI would validate,
serialize and gzip it again for every request: for the curves of a 10,000-trial sweep (175 KB)
that was ~15 ms of the ~17 ms a request took. The bytes are kept here, by the object.

Each answer carries an ETag of its bytes and ``Cache-Control: private, no-cache``: a browser
keeps the body and asks again with ``If-None-Match``, and a view that has not changed since is a
304 with no body (a live sweep page refreshes its views every 30 s, most of them unchanged)."""

from __future__ import annotations

import gzip
import hashlib
from typing import Any

from fastapi import Request, Response
from pydantic import BaseModel

from service.usecases.view_cache import ViewCache

# as the app's GZipMiddleware: smaller bodies go as they are
GZIP_MINIMUM_BYTES = 1024
GZIP_LEVEL = 5
# a browser keeps the answer, for this token alone, and revalidates it before each use
CACHING_HEADERS = {"Cache-Control": "private, no-cache", "Vary": "Accept-Encoding, Authorization"}
# for the OpenAPI description of a route answered through SERIALIZED
NOT_MODIFIED: dict[int | str, dict[str, Any]] = {
    304: {"description": "Not modified: the `If-None-Match` request header named this ETag."}
}


class Serialized:
    """One read's JSON, and its gzip once a client asked for it."""

    def __init__(self, read: BaseModel):
        self.read = read  # held, so its id names no other object while this entry lives
        self.json = read.model_dump_json(by_alias=True).encode()
        self.gzip: bytes | None = None
        # weak: the gzipped and the plain body are the same JSON
        self.etag = f'W/"{hashlib.blake2b(self.json, digest_size=12).hexdigest()}"'

    def gzipped(self) -> bytes:
        if self.gzip is None:
            self.gzip = gzip.compress(self.json, compresslevel=GZIP_LEVEL, mtime=0)
        return self.gzip


class SerializedReads:
    """The newest ``size`` reads' bytes, by object identity (an entry holds its read, so no
    other object has that id while the entry lives)."""

    def __init__(self, size: int = 128):
        self.entries = ViewCache(size)

    def of(self, read: BaseModel) -> Serialized:
        return self.entries.get((id(read),), lambda: Serialized(read))

    def response(self, request: Request, read: BaseModel) -> Response:
        """``read`` as FastAPI would answer it (JSON by alias), gzipped for clients that accept
        it as the middleware would (which passes an encoded body through)."""
        entry = self.of(read)
        headers = {"ETag": entry.etag, **CACHING_HEADERS}
        if entry.etag in named_etags(request.headers.get("if-none-match", "")):
            return Response(status_code=304, headers=headers)
        accepts_gzip = "gzip" in request.headers.get("accept-encoding", "")
        if accepts_gzip and len(entry.json) >= GZIP_MINIMUM_BYTES:
            return Response(
                entry.gzipped(),
                media_type="application/json",
                headers={"Content-Encoding": "gzip", **headers},
            )
        return Response(entry.json, media_type="application/json", headers=headers)


def named_etags(if_none_match: str) -> set[str]:
    """The ETags an ``If-None-Match`` header names, each as a weak one (RFC 9110's weak
    comparison, which that header uses); ``*`` is not one of ours."""
    return {
        tag if tag.startswith("W/") else f"W/{tag}"
        for tag in (part.strip() for part in if_none_match.split(","))
        if tag.endswith('"')
    }


SERIALIZED = SerializedReads()
