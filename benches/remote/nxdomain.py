"""A DNS server on 127.0.0.1:53 that answers every query NXDOMAIN.

benches/remote.sh runs lychee's `.invalid` case in a network namespace of
its own (`unshare -n`), with this as its only resolver: the lookup gets
the answer a real resolver gives for `.invalid` (RFC 6761), and no packet
can leave the machine.
"""

import socket
import sys


def answer(query: bytes) -> bytes:
    """The NXDOMAIN reply to `query`: its id and question, no records."""
    if len(query) < 12:
        return b""
    # The question: a name as labels up to the root's empty one, then
    # its type and class.
    end = 12
    while end < len(query) and query[end] != 0:
        end += 1 + query[end]
    end += 5
    if end > len(query):
        return b""
    # QR, the query's opcode and RD, RA, and rcode 3 (NXDOMAIN).
    flags = 0x8000 | (query[2] & 0x79) << 8 | 0x80 | 3
    # The query's id, one question, no records.
    return query[:2] + flags.to_bytes(2, "big") + b"\0\1" + bytes(6) + query[12:end]


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 53))
    print("ready", flush=True)
    while True:
        query, peer = sock.recvfrom(4096)
        reply = answer(query)
        if reply:
            sock.sendto(reply, peer)


if __name__ == "__main__":
    sys.exit(main())
