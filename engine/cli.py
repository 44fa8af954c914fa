"""``leyden`` / ``python -m engine``: the command line.

    leyden perft GAME DEPTH [--fen FEN] [--divide]
"""
import argparse
import sys
import time


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one ``error: ...`` line and exit 2."""

    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _perft(args) -> int:
    from movegen import Position
    try:
        pos = Position(args.game, args.fen)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.depth < 0:
        print("error: depth must be 0 or more", file=sys.stderr)
        return 2
    start = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move, count in pos.divide(args.depth):
            print(f"{move}: {count}", flush=True)
            total += count
    else:
        total = pos.perft(args.depth)
    seconds = time.perf_counter() - start
    print(f"Nodes: {total}")
    nps = total / seconds if seconds > 0 else 0.0
    print(f"Time: {seconds:.3f} s, {nps / 1e6:.2f} M nodes/s", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="leyden", description="Leyden chess-variant engine")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    p = sub.add_parser("perft", help="count legal move sequences to a depth")
    p.add_argument("game")
    p.add_argument("depth", type=int)
    p.add_argument("--fen", default=None, help="start from this position (default: the game's setup)")
    p.add_argument("--divide", action="store_true", help="one 'MOVE: COUNT' line per root move")
    p.set_defaults(func=_perft)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return args.func(args)
