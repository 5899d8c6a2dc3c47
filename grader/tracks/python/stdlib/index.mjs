// The standard library modules the Python track ships (./README.md, Standard library), each compiled
// to MicroPython bytecode when the guest is bundled (../bytecode.mjs). The guest writes them into the
// interpreter's file system as /lib/_std_<name>.mpy and the import guard (../runtime.py) imports one
// the first time a submission asks for it, so a submission pays only for what it imports.
import ABC from './abc.py';
import COLLECTIONS from './collections.py';
import COPY from './copy.py';
import ENUM from './enum.py';
import FUNCTOOLS from './functools.py';
import ITERTOOLS from './itertools.py';
import LOGGING from './logging.py';
import OS from './os.py';
import RANDOM from './random.py';
import SYS from './sys.py';
import UUID from './uuid.py';
import WARNINGS from './warnings.py';

export const STDLIB = Object.freeze({
  abc: ABC,
  collections: COLLECTIONS,
  copy: COPY,
  enum: ENUM,
  functools: FUNCTOOLS,
  itertools: ITERTOOLS,
  logging: LOGGING,
  os: OS,
  random: RANDOM,
  sys: SYS,
  uuid: UUID,
  warnings: WARNINGS,
});
