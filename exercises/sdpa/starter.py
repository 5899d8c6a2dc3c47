# Причинное self-attention на NumPy: четыре функции из урока.
# Тела функций — `...`: такая функция возвращает None, и проверка пишет «не реализовано».
import numpy as np


def causal_mask(T):
    """Маска «куда можно смотреть»: булев массив формы (T, T).

    mask[i, j] истинно ровно при j <= i: токен i видит себя и всё, что было раньше,
    а всё выше главной диагонали (будущее) — False. Например, при T = 3:
        [[ True, False, False],
         [ True,  True, False],
         [ True,  True,  True]]
    """
    # TODO: нижний треугольник из единиц (np.tril, np.ones) с dtype=bool
    ...


def softmax(x):
    """Softmax вдоль последней оси, численно устойчивый; форма выхода та же, что у x.

    В каждой строке (по последней оси) значения неотрицательны и в сумме дают 1.
    -np.inf на входе превращается в вес ровно 0; входы порядка ±1000 не дают inf и nan.
    """
    # TODO: вычтите максимум строки (x.max(axis=-1, keepdims=True)), возьмите np.exp,
    #       поделите на сумму по той же оси (тоже keepdims=True)
    ...


def attention(Q, K, V, mask=None):
    """Scaled dot-product attention.

    Q: (..., T_q, d_k), K: (..., T_k, d_k), V: (..., T_k, d_v); «...» — ноль или больше ведущих осей (батч).
    mask: None или булев массив (T_q, T_k); где False, смотреть нельзя.
    Возвращает кортеж (out, weights):
        weights = softmax(Q Kᵀ / sqrt(d_k)) с учётом маски, форма (..., T_q, T_k);
        out = weights @ V, форма (..., T_q, d_v).
    Kᵀ меняет местами только две последние оси K.
    """
    # TODO: оценки Q @ (K с переставленными двумя последними осями) / np.sqrt(d_k)
    # TODO: если маска передана, закрытые клетки оценок заменить на -np.inf (np.where)
    # TODO: веса — softmax оценок, выход — веса @ V; вернуть (out, weights)
    ...


def causal_self_attention(X, W_q, W_k, W_v):
    """Причинное self-attention: запросы, ключи и значения получаются из одного X.

    X: (T, d_model) или (B, T, d_model); W_q, W_k: (d_model, d_k); W_v: (d_model, d_v).
    Возвращает (out, weights), как attention(): out — (..., T, d_v), weights — (..., T, T).
    """
    # TODO: Q, K, V — произведения X на W_q, W_k, W_v; T — предпоследняя ось X;
    #       attention(Q, K, V, causal_mask(T))
    ...


# Пример из урока: нажмите «Запустить», когда функции будут готовы.
Q = np.array([[2.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = np.array([[10.0, 0.0], [0.0, 10.0], [5.0, 5.0]])
print(causal_mask(3))
res = attention(Q, K, V, causal_mask(3))
if res is not None:
    out, weights = res
    print(np.round(weights, 3))  # ожидается [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]
    print(np.round(out, 3))      # ожидается [[10 0] [1.956 8.044] [5 5]]
