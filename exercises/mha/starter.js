// Многоголовое внимание. Глобальный `np` — маленький аналог NumPy.
// Операторы JavaScript с массивами не работают: пишите np.add, np.divide, np.matmul, np.reshape,
// np.swapaxes (или методы a.div(b), a.matmul(b), …). Срезов вида x[:, 0:2] в np нет — головы
// выделяются через reshape и перестановку осей.

// Из прошлого упражнения — готово, пользуйтесь.
function softmax(x) {
  const e = np.exp(np.subtract(x, np.max(x, { axis: -1, keepdims: true })));
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

function causal_mask(T) {
  return np.tril(np.ones([T, T], { dtype: 'bool' }));
}

/**
 * Разбиение на головы.
 *   x: (…, T, d_model) — например (T, d_model) или (B, T, d_model)
 * Возвращает массив (…, n_heads, T, d_head), где d_head = d_model / n_heads.
 * Голова h получает столбцы x с номерами h·d_head … (h+1)·d_head − 1, подряд.
 * Если d_model не делится на n_heads, выбросьте ошибку (throw new Error(...)) с понятным текстом.
 * @param x массив (…, T, d_model)
 * @param {number} n_heads число голов
 */
function split_heads(x, n_heads) {
  // TODO: проверить делимость d_model на n_heads
  // TODO: reshape в (…, T, n_heads, d_head), затем поменять местами оси -3 и -2
}

/**
 * Склейка голов — обратная к split_heads операция.
 *   x: (…, H, T, d_head)
 * Возвращает (…, T, H·d_head): для каждой позиции головы стоят рядом, голова 0 — первые d_head столбцов.
 * @param x массив (…, H, T, d_head)
 */
function merge_heads(x) {
  // TODO: вернуть ось T на место (оси -3 и -2), затем reshape
}

/**
 * Многоголовое внимание.
 *   X: (…, T, d_model);  W_q, W_k, W_v, W_o: (d_model, d_model), умножаются справа: Q = X @ W_q
 *   n_heads: число голов, d_model должно на него делиться
 *   causal: true — у каждой головы причинная маска, false — без маски
 * Возвращает [out, weights]:
 *   weights — (…, n_heads, T, T), у каждой головы softmax(Q_h·K_hᵀ / √d_head) с маской;
 *   out     — (…, T, d_model) = merge_heads(weights · V_h) @ W_o.
 */
function multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, causal = true) {
  // TODO: Q, K, V = проекции X, разбитые на головы
  // TODO: оценки каждой головы, делённые на √d_head; при causal — маска до softmax
  // TODO: веса · V, склеить головы, умножить на W_o; вернуть [out, weights]
}

// Пример, который можно проверить вручную: три токена в виде one-hot, две головы.
// Голова 0 — пример из первого урока, голова 1 усредняет. Нажмите «Запустить», когда функции будут готовы.
{
  const X = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]]);
  const W_q = np.array([[2, 0, 0, 0], [0, 2, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]);
  const W_k = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1], [0, 0, 0, 0]]);
  const W_v = np.array([[10, 0, 3, 0], [0, 10, 0, 3], [5, 5, 3, 3], [0, 0, 0, 0]]);
  const W_o = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0], [0, 1, 0, 1]]);
  const heads = split_heads(X, 2);
  if (heads !== undefined) print(heads.shape); // ожидается [2, 3, 2]
  const res = multi_head_attention(X, W_q, W_k, W_v, W_o, 2);
  if (res !== undefined) {
    const [out, weights] = res;
    print(np.round(weights, 3)); // голова 0: [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]; голова 1: [[1 0 0] [0.5 0.5 0] [0.333 0.333 0.333]]
    print(np.round(out, 3));     // ожидается [[13 0 3 0] [3.456 9.544 1.5 1.5] [7 7 2 2]]
  }
}
