"""Push services that misbehave, for real, on loopback only (127.0.0.1 or ::1): a TCP listener on a
thread that hands each connection to an ``answer`` (one that never answers, one that drips a byte at
a time, one that redirects, one that sends a body without end), and records what it saw."""

from __future__ import annotations

import socket
import threading
import time

LOOPBACK = ("127.0.0.1", "::1")
# Seconds a listener waits for a request's head, and holds a connection it never answers: longer than
# any test waits, shorter than forever (the listener ends with its test anyway).
HOLD = 120


class Listener:
    def __init__(self, answer, host: str = "127.0.0.1", port: int = 0) -> None:
        assert host in LOOPBACK, "listeners on loopback only"
        self.answer = answer
        self.host = host
        self.sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.stopped = threading.Event()
        self.lock = threading.Lock()
        self.connections = 0
        self.requests: list[bytes] = []  # each request's head
        self.sent = 0  # bytes of answers written
        self.done = 0  # connections whose answer has ended (closed by either side)
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _address = self.sock.accept()
            except OSError:
                return
            with self.lock:
                self.connections += 1
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        try:
            with conn:
                conn.settimeout(HOLD)
                head = read_head(conn)
                with self.lock:
                    self.requests.append(head)
                self.answer(self, conn, head)
        except OSError:
            pass  # the client went away: what the misbehaving service wants to see
        finally:
            with self.lock:
                self.done += 1

    def write(self, conn: socket.socket, data: bytes) -> None:
        conn.sendall(data)
        with self.lock:
            self.sent += len(data)

    def close(self) -> None:
        self.stopped.set()
        self.sock.close()

    def wait_until(self, condition, what: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
            time.sleep(0.05)


def read_head(conn: socket.socket) -> bytes:
    """The request's head (up to its blank line); its body is left unread, as a slow server leaves it."""
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 65536:
        chunk = conn.recv(4096)
        if not chunk:
            break
        head += chunk
    return head.split(b"\r\n\r\n", 1)[0]


# --- answers ----------------------------------------------------------------------------------------


def black_hole(listener: Listener, conn: socket.socket, head: bytes) -> None:
    """Accepts, reads the request, never answers."""
    listener.stopped.wait(HOLD)


def drip(every: float):
    """Answers a byte at a time, one every ``every`` seconds: never still for as long as a read timeout."""

    def answer(listener: Listener, conn: socket.socket, head: bytes) -> None:
        for byte in b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nX-Slow: " + b"." * 200 + b"\r\n\r\n":
            listener.write(conn, bytes([byte]))
            if listener.stopped.wait(every):
                return

    return answer


def redirect_to(location: str):
    """Answers 307 to ``location``, which a client that follows redirects posts the message to again."""

    def answer(listener: Listener, conn: socket.socket, head: bytes) -> None:
        listener.write(
            conn,
            f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode(),
        )

    return answer


BODY_MARK = b"INTERNAL-SECRET-"


def big_error(size: int):
    """Answers 500 with a body of ``size`` bytes, written as fast as the client takes it."""

    def answer(listener: Listener, conn: socket.socket, head: bytes) -> None:
        listener.write(conn, f"HTTP/1.1 500 Internal Server Error\r\nContent-Length: {size}\r\n\r\n".encode())
        chunk = BODY_MARK * 4096
        left = size
        while left > 0:
            piece = chunk[:left]
            listener.write(conn, piece)
            left -= len(piece)

    return answer


def routes(**answers):
    """One listener, several behaviours: the first path segment of the request names the answer."""

    def answer(listener: Listener, conn: socket.socket, head: bytes) -> None:
        path = head.split(b" ", 2)[1].decode() if head.count(b" ") >= 2 else "/"
        answers[path.strip("/").split("/")[0]](listener, conn, head)

    return answer
