"""Bit counting for the kernels: LLVM's own instructions (one machine instruction each on
a current x86-64), which numba offers no function for.

``popcount(x)`` counts the set bits of an int64; ``lowest_bit(x)`` and ``highest_bit(x)``
give the index of its lowest and highest set bit: 64 and -1 when ``x`` is 0.
"""
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_I64 = ir.IntType(64)
_I1 = ir.IntType(1)


def _call(builder, name, value, *flags):
    """``name``(value, *flags): an LLVM bit intrinsic on an i64 (flags: i1 constants)."""
    fn = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(_I64, [_I64] + [_I1] * len(flags)), name)
    return builder.call(fn, [value] + [ir.Constant(_I1, f) for f in flags])


def _int64(context, builder, sig, args):
    return context.cast(builder, args[0], sig.args[0], types.int64)


@intrinsic
def popcount(typingctx, x):
    def codegen(context, builder, sig, args):
        return _call(builder, "llvm.ctpop.i64", _int64(context, builder, sig, args))
    return types.int64(x), codegen


@intrinsic
def lowest_bit(typingctx, x):
    def codegen(context, builder, sig, args):
        return _call(builder, "llvm.cttz.i64", _int64(context, builder, sig, args), 0)
    return types.int64(x), codegen


@intrinsic
def highest_bit(typingctx, x):
    def codegen(context, builder, sig, args):
        zeros = _call(builder, "llvm.ctlz.i64", _int64(context, builder, sig, args), 0)
        return builder.sub(ir.Constant(_I64, 63), zeros)
    return types.int64(x), codegen
