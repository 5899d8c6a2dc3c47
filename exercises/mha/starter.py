# Многоголовое внимание на NumPy: три функции. softmax и causal_mask из прошлого упражнения уже готовы.
# Тела функций — `...`: такая функция возвращает None, и проверка пишет «не реализовано».
import numpy as np


# Из прошлого упражнения — готово, пользуйтесь.
def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def causal_mask(T):
    return np.tril(np.ones((T, T), dtype=bool))


def split_heads(x, n_heads):
    """Разбиение на головы.

    x: (..., T, d_model) — например (T, d_model) или (B, T, d_model).
    Возвращает массив (..., n_heads, T, d_head), где d_head = d_model // n_heads.
    Голова h получает подряд идущие столбцы x с номерами h·d_head … (h+1)·d_head − 1.
    Если d_model не делится на n_heads, выбросьте свою ошибку с понятным текстом
    (raise ValueError(...)), где названы оба числа.
    """
    # TODO: проверить, что d_model (x.shape[-1]) делится на n_heads
    # TODO: reshape в (..., T, n_heads, d_head), затем поменять местами оси -3 и -2
    ...


def merge_heads(x):
    """Склейка голов — операция, обратная к split_heads.

    x: (..., H, T, d_head).
    Возвращает (..., T, H·d_head): для каждой позиции головы стоят рядом,
    голова 0 — первые d_head столбцов.
    """
    # TODO: вернуть ось T на место (оси -3 и -2), затем reshape
    ...


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal=True):
    """Многоголовое внимание.

    X: (..., T, d_model); W_q, W_k, W_v, W_o: (d_model, d_model), умножаются справа: Q = X @ W_q.
    n_heads: число голов, d_model должно на него делиться.
    causal: True — у каждой головы причинная маска, False — без маски.
    Возвращает кортеж (out, weights):
        weights — (..., n_heads, T, T), у каждой головы softmax(Q_h @ K_hᵀ / √d_head) с маской;
        out — (..., T, d_model) = merge_heads(weights @ V_h) @ W_o.
    """
    # TODO: Q, K, V — проекции X, разбитые на головы split_heads
    # TODO: оценки каждой головы, делённые на np.sqrt(d_head); при causal — маска до softmax
    # TODO: веса @ V, склеить головы, умножить на W_o; вернуть (out, weights)
    ...


# Пример, который можно проверить вручную: три токена в виде one-hot, две головы.
# Голова 0 — пример из первого урока, голова 1 усредняет. Нажмите «Запустить», когда функции будут готовы.
X = np.array([[1.0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]])
W_q = np.array([[2.0, 0, 0, 0], [0, 2, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]])
W_k = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 0, 0]])
W_v = np.array([[10.0, 0, 3, 0], [0, 10, 0, 3], [5, 5, 3, 3], [0, 0, 0, 0]])
W_o = np.array([[1.0, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]])
heads = split_heads(X, 2)
if heads is not None:
    print(heads.shape)  # ожидается (2, 3, 2)
res = multi_head_attention(X, W_q, W_k, W_v, W_o, 2)
if res is not None:
    out, weights = res
    print(np.round(weights, 3))  # голова 0: [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]; голова 1: [[1 0 0] [0.5 0.5 0] [0.333 0.333 0.333]]
    print(np.round(out, 3))      # ожидается [[13 0 3 0] [3.456 9.544 1.5 1.5] [7 7 2 2]]
