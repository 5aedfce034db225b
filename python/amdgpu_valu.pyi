"""Type stubs of the amdgpu_valu extension module (python/src/*.rs).

tests/test_stubs.py checks that every name the module exports is here with
the same parameters.
"""

from typing import Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

class Error(ValueError):
    """A request the library refused: an unknown target, or an error below."""

class AssemblyError(Error):
    """Assembly text the assembler refused; the message names the 1-based column."""

class DecodeError(Error):
    """Machine code the decoder refused; the message names the byte offset."""

class ExecError(Error):
    """An instruction the target cannot execute, or a register or lane out of range."""

_Omod = Union[int, str, None]
_Bits = Union[
    npt.NDArray[np.uint16],
    npt.NDArray[np.float16],
    npt.NDArray[np.uint32],
    npt.NDArray[np.float32],
    npt.NDArray[np.uint64],
    npt.NDArray[np.float64],
]

def targets() -> list[str]:
    """The names of the ten targets, in ISA-generation order."""

def fract(
    x: _Bits,
    *,
    target: str,
    mode: int = 0xF0,
    abs: bool = False,
    neg: bool = False,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_FRACT of every element of x, as the VOP3 form on target computes it."""

def ldexp(
    x: _Bits,
    e: Union[int, npt.NDArray[np.integer]],
    *,
    target: str,
    mode: int = 0xF0,
    abs: bool = False,
    neg: bool = False,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_LDEXP of every element: x * 2**e, as the VOP3 form on target computes it."""

_Flags = Optional[Sequence[bool]]

def add(
    a: _Bits,
    b: _Bits,
    *,
    target: str,
    mode: int = 0xF0,
    abs: _Flags = None,
    neg: _Flags = None,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_ADD of every element: a + b rounded once, as the VOP3 form on target computes it."""

def sub(
    a: _Bits,
    b: _Bits,
    *,
    target: str,
    mode: int = 0xF0,
    abs: _Flags = None,
    neg: _Flags = None,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_SUB of every element: a - b (F16 and F32 only)."""

def subrev(
    a: _Bits,
    b: _Bits,
    *,
    target: str,
    mode: int = 0xF0,
    abs: _Flags = None,
    neg: _Flags = None,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_SUBREV of every element: b - a (F16 and F32 only)."""

def mul(
    a: _Bits,
    b: _Bits,
    *,
    target: str,
    mode: int = 0xF0,
    abs: _Flags = None,
    neg: _Flags = None,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_MUL of every element: a x b rounded once."""

def fma(
    a: _Bits,
    b: _Bits,
    c: _Bits,
    *,
    target: str,
    mode: int = 0xF0,
    abs: _Flags = None,
    neg: _Flags = None,
    omod: _Omod = None,
    clamp: bool = False,
    out: Optional[_Bits] = None,
) -> _Bits:
    """V_FMA of every element: a x b + c with one rounding."""

class Prepared:
    """One VOP3 instruction (target, op, format, MODE, modifiers) checked and
    decoded once; calling it runs the instruction on arrays."""

    def __init__(
        self,
        target: str,
        op: str,
        format: str,
        *,
        mode: int = 0xF0,
        abs: Union[bool, _Flags] = None,
        neg: Union[bool, _Flags] = None,
        omod: _Omod = None,
        clamp: bool = False,
    ) -> None: ...
    @property
    def target(self) -> str: ...
    @property
    def op(self) -> str: ...
    @property
    def format(self) -> str: ...
    @property
    def mode(self) -> int: ...
    def run(
        self,
        a: _Bits,
        b: Union[_Bits, int, npt.NDArray[np.integer], None] = None,
        c: Optional[_Bits] = None,
        *,
        out: Optional[_Bits] = None,
        exec: Optional[npt.NDArray[np.uint64]] = None,
    ) -> _Bits:
        """The instruction over every element: p(x) FRACT, p(x, e) LDEXP,
        p(a, b) ADD/SUB/SUBREV/MUL, p(a, b, c) FMA."""
    __call__ = run

class Instruction:
    """One instruction for one target."""

    def __init__(self, text: str, *, target: str) -> None: ...
    @property
    def target(self) -> str: ...
    @property
    def opcode(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def bytes(self) -> bytes: ...

def assemble(text: str, *, target: str) -> bytes:
    """The machine code of one line of assembly, as llvm-mc 22 prints it."""

def decode(data: bytes, *, target: str) -> Instruction:
    """Decode the instruction at the start of data."""

def disassemble(data: bytes, *, target: str) -> str:
    """LLVM's canonical text of the instruction at the start of data."""

class Wave:
    """One wave of one target; v and s are views of its registers, a new
    view at each read (reshaping one leaves the registers as they are)."""

    mode: int
    exec: int
    vcc: int
    m0: int
    def __init__(self, target: str, *, lanes: Optional[int] = None, mode: int = 0) -> None: ...
    @property
    def target(self) -> str: ...
    @property
    def lanes(self) -> int: ...
    @property
    def v(self) -> npt.NDArray[np.uint32]: ...
    @property
    def s(self) -> npt.NDArray[np.uint32]: ...
    def v64(self, reg: int) -> npt.NDArray[np.uint64]: ...
    def set_v64(self, reg: int, values: Union[int, npt.NDArray[np.unsignedinteger]]) -> None: ...

def execute(wave: Wave, instruction: Union[Instruction, str]) -> None:
    """Execute one instruction on wave, as its target does."""

class ReplayResult:
    """The result of replay()."""

    @property
    def passed(self) -> int: ...
    @property
    def failed(self) -> int: ...
    @property
    def failures(self) -> list[str]: ...
    @property
    def ok(self) -> bool: ...

def replay(text: str) -> ReplayResult:
    """Replay capture rows and compare every register bit for bit."""
