# uuid for the Python track: the UUID class (from hex, bytes, int or fields), uuid4 from the runtime's
# random bits, the NAMESPACE_* constants. uuid1 is made like uuid4 with version 1 (there is no MAC
# address here); uuid3 and uuid5 need MD5 and SHA-1, which this runtime does not have.
import random

RESERVED_NCS = 'reserved for NCS compatibility'
RFC_4122 = 'specified in RFC 4122'
RESERVED_MICROSOFT = 'reserved for Microsoft compatibility'
RESERVED_FUTURE = 'reserved for future definition'


class UUID:
    def __init__(self, hex=None, bytes=None, bytes_le=None, fields=None, int=None, version=None):
        if [hex, bytes, bytes_le, fields, int].count(None) != 4:
            raise TypeError('one of the hex, bytes, bytes_le, fields, or int arguments must be given')
        if hex is not None:
            h = hex.replace('urn:', '').replace('uuid:', '').strip('{}').replace('-', '')
            if len(h) != 32:
                raise ValueError('badly formed hexadecimal UUID string')
            int = _int(h, 16)
        elif bytes is not None:
            if len(bytes) != 16:
                raise ValueError('bytes is not a 16-char string')
            int = _int(''.join('%02x' % b for b in bytes), 16)
        elif bytes_le is not None:
            b = bytes_le
            int = _int(''.join('%02x' % x for x in (b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6]) + tuple(b[8:])), 16)
        elif fields is not None:
            tl, tm, th, cs, cl, node = fields
            int = (tl << 96) | (tm << 80) | (th << 64) | (cs << 56) | (cl << 48) | node
        if not 0 <= int < 1 << 128:
            raise ValueError('int is out of range (need a 128-bit value)')
        if version is not None:
            int &= ~(0xc000 << 48)
            int |= 0x8000 << 48
            int &= ~(0xf000 << 64)
            int |= version << 76
        self.int = int

    @property
    def hex(self):
        return '%032x' % self.int

    def __str__(self):
        h = self.hex
        return h[:8] + '-' + h[8:12] + '-' + h[12:16] + '-' + h[16:20] + '-' + h[20:]

    def __repr__(self):
        return "UUID('" + str(self) + "')"

    @property
    def bytes(self):
        h = self.hex
        return _bytes(_int(h[i:i + 2], 16) for i in range(0, 32, 2))

    @property
    def urn(self):
        return 'urn:uuid:' + str(self)

    @property
    def version(self):
        if self.variant == RFC_4122:
            return (self.int >> 76) & 0xf
        return None

    @property
    def variant(self):
        if not self.int & (0x8000 << 48):
            return RESERVED_NCS
        if not self.int & (0x4000 << 48):
            return RFC_4122
        if not self.int & (0x2000 << 48):
            return RESERVED_MICROSOFT
        return RESERVED_FUTURE

    @property
    def fields(self):
        i = self.int
        return ((i >> 96) & 0xffffffff, (i >> 80) & 0xffff, (i >> 64) & 0xffff, (i >> 56) & 0xff, (i >> 48) & 0xff,
                i & 0xffffffffffff)

    def __eq__(self, other):
        return isinstance(other, UUID) and self.int == other.int

    def __lt__(self, other):
        return self.int < other.int

    def __hash__(self):
        return hash(self.int)

    def __int__(self):
        return self.int


_int = int
_bytes = bytes


def _random_int():
    v = 0
    for _ in range(4):
        v = (v << 32) | random.getrandbits(32)
    return v


def uuid4():
    return UUID(int=_random_int(), version=4)


def uuid1(node=None, clock_seq=None):
    return UUID(int=_random_int(), version=1)


def _no_hash(name):
    def f(namespace, n):
        raise NotImplementedError('uuid.' + name + '() needs a hash this runtime does not have; use uuid.uuid4()')
    return f


uuid3 = _no_hash('uuid3')
uuid5 = _no_hash('uuid5')

NAMESPACE_DNS = UUID('6ba7b810-9dad-11d1-80b4-00c04fd430c8')
NAMESPACE_URL = UUID('6ba7b811-9dad-11d1-80b4-00c04fd430c8')
NAMESPACE_OID = UUID('6ba7b812-9dad-11d1-80b4-00c04fd430c8')
NAMESPACE_X500 = UUID('6ba7b814-9dad-11d1-80b4-00c04fd430c8')
