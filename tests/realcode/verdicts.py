# The CPython + NumPy side of the real-code corpus (README.md here): each *.py file of this folder
# is run by CPython against the pack's own solution.py on the same inputs (two-dimensional and batched,
# with and without masks, caches and RoPE), and gets 'pass' when every result is allclose, else 'fail'.
# Prints {"file.py": "pass" | "fail", ...} as JSON; tests/js/realcode.test.mjs grades the same files
# on the Python track and wants the same verdict for each.
import contextlib
import io
import json
import os
import sys
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXERCISES = os.path.join(HERE, '..', '..', 'exercises')


def load(path):
    module = types.ModuleType('realcode_' + os.path.basename(path)[:-3])
    sys.modules[module.__name__] = module  # dataclasses look their module up
    with open(path) as f, contextlib.redirect_stdout(io.StringIO()):
        exec(compile(f.read(), path, 'exec'), module.__dict__)
    return module.__dict__


def same(a, b):
    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-8)  # the grader's tolerance (grader/core/compare.mjs)


rng = np.random.default_rng(7)
n = lambda *s: rng.standard_normal(s)


def check_sdpa(f, r):
    yield same(f['causal_mask'](1), r['causal_mask'](1)) and same(f['causal_mask'](5), r['causal_mask'](5))
    x = n(2, 3, 5)
    x[0, 1, 2] = -np.inf
    yield same(f['softmax'](x), r['softmax'](x)) and same(f['softmax'](x[0]), r['softmax'](x[0]))
    for shape in [(4, 3), (2, 4, 3)]:
        Q, K, V = n(*shape), n(*shape), n(*shape)
        yield same(f['attention'](Q, K, V), r['attention'](Q, K, V))
        m = r['causal_mask'](4)
        yield same(f['attention'](Q, K, V, m), r['attention'](Q, K, V, m))
        X, Wq, Wk, Wv = n(*shape[:-1], 6), n(6, 3), n(6, 3), n(6, 2)
        yield same(f['causal_self_attention'](X, Wq, Wk, Wv), r['causal_self_attention'](X, Wq, Wk, Wv))


def raises_itself(fn, *args):
    """The pack asks split_heads to refuse a d_model that n_heads does not divide with an error of its own."""
    try:
        fn(*args)
    except Exception as e:
        tb = e.__traceback__
        while tb.tb_next:
            tb = tb.tb_next
        return tb.tb_frame.f_code.co_filename.startswith(HERE)
    return False


def check_mha(f, r):
    yield raises_itself(f['split_heads'], n(2, 3, 10), 4)
    for shape in [(5, 8), (2, 5, 8)]:
        x = n(*shape)
        yield same(f['split_heads'](x, 2), r['split_heads'](x, 2))
        h = r['split_heads'](x, 4)
        yield same(f['merge_heads'](h), r['merge_heads'](h))
        W = [n(8, 8) * 0.4 for _ in range(4)]
        for causal in (True, False):
            yield same(f['multi_head_attention'](x, *W, 4, causal), r['multi_head_attention'](x, *W, 4, causal))


def check_rope(f, r):
    yield same(f['rope_cache'](6, 8), r['rope_cache'](6, 8))
    cos, sin = r['rope_cache'](9, 8)
    for shape in [(5, 8), (2, 3, 5, 8)]:
        x = n(*shape)
        yield same(f['apply_rope'](x, cos, sin), r['apply_rope'](x, cos, sin))
        yield same(f['apply_rope'](x, cos, sin, 3), r['apply_rope'](x, cos, sin, 3))


def check_kv_cache(f, r):
    yield all(f['kv_cache_bytes'](*a) == r['kv_cache_bytes'](*a) for a in [(32, 8, 128, 1, 1), (2, 3, 4, 5, 6, 4)])
    x = n(2, 2, 3, 4)
    yield same(f['repeat_kv'](x, 3), r['repeat_kv'](x, 3))
    rope = load(os.path.join(EXERCISES, 'rope', 'solution.py'))['rope_cache'](8, 4)
    x = n(2, 5, 8)
    W = [n(8, 8) * 0.4, n(8, 4) * 0.4, n(8, 4) * 0.4, n(8, 8) * 0.4]
    for rp in (None, rope):
        got, want = f['attend_with_cache'](x[:, :3], *W, 2, None, rp), r['attend_with_cache'](x[:, :3], *W, 2, None, rp)
        yield same(got, want)
        got2 = f['attend_with_cache'](x[:, 3:], *W, 2, got[1], rp)
        want2 = r['attend_with_cache'](x[:, 3:], *W, 2, want[1], rp)
        yield same(got2, want2)


CHECKS = {'sdpa': check_sdpa, 'mha': check_mha, 'rope': check_rope, 'kv_cache': check_kv_cache}


def verdict(path):
    with open(path) as fh:
        slug = fh.readline().split('exercise:')[1].strip()
    ref = load(os.path.join(EXERCISES, slug, 'solution.py'))
    try:
        f = load(path)
        return 'pass' if all(CHECKS[slug](f, ref)) else 'fail'
    except Exception:
        return 'fail'


if __name__ == '__main__':
    files = sorted(p for p in os.listdir(HERE) if p.endswith('.py') and p != 'verdicts.py')
    json.dump({p: verdict(os.path.join(HERE, p)) for p in files}, sys.stdout, indent=1)
    print()
