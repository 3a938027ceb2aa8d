"""Type stubs of the native module; import these names from ``uriscan``."""

from os import PathLike
from typing import IO, Iterator, Sequence, final

from typing_extensions import disjoint_base

__version__: str
__all__ = [
    "Link",
    "Match",
    "ParseError",
    "Uri",
    "__version__",
    "WarcLink",
    "WarcLinks",
    "_links_columns",
    "_warc_columns",
    "find",
    "links",
    "normalize",
    "parse",
    "resolve",
    "warc_links",
]

class ParseError(ValueError):
    """A string that is not a URI reference.

    ``index`` is the character index where ``input`` stopped matching
    (``input[:index]`` is valid, except for the kind ``invalid_scheme``);
    ``part`` is ``"reference"``, or ``"base"`` for the base of ``resolve``.
    """

    input: str
    index: int
    kind: str
    part: str

@final
class Match:
    """One URI found by ``find``."""

    @property
    def uri(self) -> str:
        """The URI."""
    @property
    def start(self) -> int:
        """Offset of the URI's text: bytes for ``bytes``, characters for ``str``."""
    @property
    def end(self) -> int:
        """Offset just past the URI's text."""
    @property
    def line(self) -> int:
        """The 1-based line of the URI."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@disjoint_base
class Link:
    """One link of a document, from ``links``."""

    @property
    def kind(self) -> str:
        """``html:a@href``, ``html:img@srcset``, ``md:link``, ``md:image``,
        ``md:definition``, ``md:autolink``, ``md:html``, ``text``, ``code``."""
    @property
    def link(self) -> str:
        """The reference as the format defines it (entities decoded)."""
    @property
    def raw(self) -> str:
        """The link as written."""
    @property
    def target(self) -> str | None:
        """The URI the link names, resolved; None when malformed or with no base."""
    @property
    def error(self) -> str | None:
        """Why the link names no target, when it is malformed."""
    @property
    def start(self) -> int:
        """Offset of ``raw``: bytes for ``bytes``, characters for ``str``."""
    @property
    def end(self) -> int:
        """Offset just past ``raw``."""
    @property
    def line(self) -> int:
        """The 1-based line of ``raw``."""
    @property
    def rel(self) -> str | None:
        """The element's (or Link header's) rel tokens, lowercased, space-separated."""
    @property
    def hreflang(self) -> str | None:
        """The hreflang of a ``link`` or ``a``."""
    @property
    def role(self) -> str:
        """``navigate``, ``embed`` or ``other``."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class WarcLink(Link):
    """A link of a WARC file, with the record it came from."""

    @property
    def page(self) -> str:
        """The record's WARC-Target-URI."""
    @property
    def record_id(self) -> str:
        """The record's WARC-Record-ID."""
    @property
    def record_offset(self) -> int:
        """The record's byte offset in the file (its gzip member's), or in
        the decompressed stream for a file compressed as one stream."""
    @property
    def offset_kind(self) -> str:
        """What record_offset counts: "gzip-member", "decompressed" or
        "file"."""
    @property
    def warnings(self) -> list[str]:
        """What was odd in the record but read all the same, by short name
        ("stale-chunked", "length-off", ...); empty for a clean record."""

@final
class WarcLinks:
    """The iterator of ``warc_links``."""

    def __iter__(self) -> Iterator[WarcLink]: ...
    def __next__(self) -> WarcLink: ...
    @property
    def errors(self) -> list[tuple[int, str]]:
        """The damaged records met so far: (offset, message)."""

@final
class Uri:
    """A parsed URI reference; ``str(uri)`` is the input."""

    @property
    def scheme(self) -> str | None: ...
    @property
    def authority(self) -> str | None: ...
    @property
    def userinfo(self) -> str | None: ...
    @property
    def host(self) -> str | None: ...
    @property
    def host_kind(self) -> str | None:
        """``ipv4``, ``ipv6``, ``ipvfuture`` or ``reg-name``."""
    @property
    def port(self) -> str | None: ...
    @property
    def path(self) -> str: ...
    @property
    def query(self) -> str | None: ...
    @property
    def fragment(self) -> str | None: ...
    @property
    def is_relative(self) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def find(
    data: bytes | str,
    /,
    *,
    schemes: Sequence[str] | None = None,
    any_scheme: bool = False,
    ascii: bool = False,
) -> list[Match]:
    """The URIs of plain text, in order."""

def links(
    data: bytes | str,
    /,
    *,
    format: str = "html",
    url: str | None = None,
    base: str | None = None,
    root: str | None = None,
    charset: str | None = None,
    include_text: bool = False,
    include_code: bool = False,
    standard: str = "rfc3986",
) -> list[Link]:
    """The links of one HTML, Markdown or text document, in order."""

def parse(s: str, /, *, iri: bool = False) -> Uri:
    """Parses a URI reference; raises ParseError."""

def resolve(base: str, reference: str, /, *, iri: bool = False) -> str:
    """The target of ``reference`` against ``base`` (RFC 3986 section 5)."""

def normalize(s: str, /, *, scheme_based: bool = False, iri: bool = False) -> str:
    """The normal form of a URI reference (RFC 3986 section 6)."""

def warc_links(
    source: str | PathLike[str] | IO[bytes] | bytes | bytearray | memoryview,
    /,
    *,
    max_block: int | None = None,
    standard: str = "rfc3986",
) -> WarcLinks:
    """The links of a WARC, ARC or WET file (a path, a binary file object
    or its bytes), record by record."""

def _warc_columns(
    source: str | PathLike[str] | IO[bytes] | bytes | bytearray | memoryview,
    rows: int,
    max_block: int | None = None,
    kinds: list[str] | None = None,
    standard: str = "rfc3986",
) -> Iterator[tuple]: ...
def _links_columns(
    content: tuple,
    url: tuple,
    format: str,
    kinds: list[str] | None = None,
    standard: str = "rfc3986",
) -> list[tuple[str, tuple[bytes | None, bytes, bytes, bool]]]: ...
