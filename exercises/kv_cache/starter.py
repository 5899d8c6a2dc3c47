# KV-кэш и внимание с группами запросов (GQA) на NumPy.
# Тела трёх функций задания — `...`: такая функция возвращает None, и проверка пишет «не реализовано».
# В этой среде нет np.repeat и np.tile: копии складывают в новую ось через np.stack,
# а по оси времени массивы склеивает np.concatenate(..., axis=2).
import numpy as np


# Из прошлых упражнений — готово, пользуйтесь.
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def split_heads(x, n_heads):
    """(…, T, n_heads·d_head) → (…, n_heads, T, d_head): голова h — столбцы h·d_head … (h+1)·d_head − 1."""
    d_head = x.shape[-1] // n_heads
    return x.reshape(x.shape[:-1] + (n_heads, d_head)).swapaxes(-3, -2)


def merge_heads(x):
    """(…, H, T, d_head) → (…, T, H·d_head), обратная к split_heads."""
    H, T, d_head = x.shape[-3:]
    return x.swapaxes(-3, -2).reshape(x.shape[:-3] + (T, H * d_head))


def apply_rope(x, cos, sin, offset=0):
    """RoPE: строка t массива x (…, T, d_head) поворачивается на углы позиции offset + t из таблиц cos, sin (T_max, d_head / 2)."""
    T = x.shape[-2]
    c, s = cos[offset:offset + T], sin[offset:offset + T]
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return np.stack((x1 * c - x2 * s, x1 * s + x2 * c), axis=-1).reshape(x.shape)


def kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes=2):
    """Сколько байт занимает KV-кэш.

    В каждом из n_layers слоёв для каждого из seq_len токенов каждой из batch последовательностей
    хранятся ключ и значение: по вектору длины d_head на каждую из n_kv_heads KV-голов,
    каждое число — dtype_bytes байт (2 для bf16).
    Возвращает число (байты). Например, kv_cache_bytes(32, 8, 128, 1, 1) == 131072 (128 КиБ).
    """
    # TODO: перемножить всё, что хранится; не забыть, что хранятся и K, и V
    ...


def repeat_kv(x, n_rep):
    """Повтор KV-голов для внимания с группами запросов (GQA).

    x: (B, H_kv, T, d) → (B, H_kv·n_rep, T, d); n_rep — сколько голов запросов приходится на одну KV-голову.
    Голова h результата — KV-голова h // n_rep: каждая KV-голова повторена n_rep раз подряд
    (при H_kv = 2, n_rep = 3 порядок 0, 0, 0, 1, 1, 1, а не 0, 1, 0, 1, 0, 1).
    """
    # TODO: n_rep копий x, сложенных в новую ось сразу после оси голов (np.stack(..., axis=2)), затем reshape
    ...


def attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache=None, rope=None):
    """Шаг внимания с KV-кэшем.

    x: (B, T, d_model) — T новых токенов; W_q, W_o: (d_model, d_model);
    W_k, W_v: (d_model, n_kv_heads·d_head), где d_head = d_model // n_heads (отсюда n_kv_heads).
    cache: пара (k, v) — кортеж или список, каждый (B, n_kv_heads, T_past, d_head), —
        или None: кэша ещё нет (T_past = 0).
    rope: пара (cos, sin) из rope_cache или None; поворачивает q и новые k на позиции T_past … T_past + T − 1.
    Запрос i нового блока видит ключи 0 … T_past + i. Голова запросов h работает с KV-головой h // n_rep.
    Возвращает кортеж (out, (k, v)):
        out — (B, T, d_model), склеенные головы, умноженные на W_o;
        (k, v) — кэш, выросший на T позиций: (B, n_kv_heads, T_past + T, d_head), ключи уже после RoPE,
        головы не повторены.
    """
    # TODO: q, k, v — проекции x, разбитые на головы (у k и v — n_kv_heads голов)
    # TODO: T_past — длина кэша; RoPE для q и k со сдвигом T_past
    # TODO: приклеить новые k, v к кэшу по оси времени (axis=2)
    # TODO: повторить KV-головы, оценки / √d_head, маска (T, T_past + T), softmax, @ V, склейка голов, @ W_o
    # TODO: вернуть out, (k, v)
    ...


# Числа из урока и проверка кэша: префилл из 3 токенов и ещё один токен против одного прохода по всем 4.
# Нажмите «Запустить», когда функции будут готовы.
if __name__ == "__main__":
    kib = kv_cache_bytes(32, 8, 128, 1, 1)
    if kib is not None:
        print(kib / 1024)  # ожидается 128.0 (КиБ на токен)
    rep = repeat_kv(np.arange(4).reshape(1, 2, 2, 1), 2)
    if rep is not None:
        print(rep.ravel().tolist())  # ожидается [0, 1, 0, 1, 2, 3, 2, 3]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 4, 8))
    W = [rng.standard_normal(s) * 0.35 for s in [(8, 8), (8, 4), (8, 4), (8, 8)]]
    whole = attend_with_cache(x, *W, 4)  # 4 головы запросов, 2 KV-головы
    if whole is not None:
        full, _ = whole
        _, cache = attend_with_cache(x[:, :3], *W, 4)
        last, _ = attend_with_cache(x[:, 3:], *W, 4, cache)
        print(np.allclose(last[0, 0], full[0, 3]))  # ожидается True
