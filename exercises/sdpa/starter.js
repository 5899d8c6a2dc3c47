// Причинное self-attention. Глобальный `np` — маленький аналог NumPy.
// В JavaScript нет перегрузки операторов: a + b и a / b с массивами дают ошибку, а a @ b нет вовсе.
// Пишите np.add(a, b), np.divide(a, b), np.matmul(a, b) или методы a.add(b), a.div(b), a.matmul(b).

/**
 * Причинная маска: булев массив формы (T, T).
 * mask[i][j] === true ровно при j <= i: токену i разрешено видеть себя и более ранние токены.
 * Всё, что выше главной диагонали (будущее), — false.
 * Пример, T = 3:
 *   [[ true, false, false],
 *    [ true,  true, false],
 *    [ true,  true,  true]]
 * @param {number} T длина последовательности (T >= 1)
 */
function causal_mask(T) {
  // TODO: нижний треугольник из единиц, приведённый к bool (np.tril, np.ones)
}

/**
 * Softmax вдоль последней оси, численно устойчивый.
 * Форма выхода совпадает с формой x; в каждой «строке» по последней оси числа >= 0 и в сумме дают 1.
 * Значение -Infinity во входе должно превратиться в вес ровно 0.
 * Большие входы (сотни и тысячи) не должны давать Infinity или NaN.
 * @param x массив любой формы (…, n)
 */
function softmax(x) {
  // TODO: сдвиньте x так, чтобы наибольшее значение каждой строки стало 0 (np.max с keepdims),
  //       затем exp и нормировка суммой по той же последней оси
}

/**
 * Scaled dot-product attention.
 *   Q: (…, T_q, d_k)   K: (…, T_k, d_k)   V: (…, T_k, d_v)
 *   «…» — ноль или больше ведущих осей, например батч B.
 *   mask: null или булев массив (T_q, T_k); false — сюда смотреть нельзя.
 * Возвращает массив из двух элементов [out, weights]:
 *   weights = softmax(Q·Kᵀ / √d_k) с учётом маски, форма (…, T_q, T_k);
 *   out     = weights·V, форма (…, T_q, d_v).
 * Kᵀ здесь — перестановка только двух последних осей K.
 */
function attention(Q, K, V, mask = null) {
  // TODO: оценки — произведение Q на K, у которого переставлены две последние оси, делённое на √d_k
  // TODO: закрытые маской клетки оценок заменить на -Infinity (только если mask передана)
  // TODO: softmax от оценок даёт веса, веса · V даёт выход; вернуть [out, weights]
}

/**
 * Причинное self-attention: запросы, ключи и значения получаются из одного X.
 *   X: (T, d_model) или (B, T, d_model)
 *   W_q, W_k: (d_model, d_k)   W_v: (d_model, d_v)
 * Возвращает [out, weights], как attention(): out — (…, T, d_v), weights — (…, T, T).
 */
function causal_self_attention(X, W_q, W_k, W_v) {
  // TODO: спроецируйте X матрицами W_q, W_k, W_v в Q, K, V; T — предпоследняя ось X; attention с causal_mask(T)
}

// Пример из урока. Нажмите «Запустить», когда функции будут готовы.
// Фигурные скобки держат имена примера (Q, K, V, …) внутри блока.
{
  const Q = np.array([[2, 0], [0, 2], [1, 1]]);
  const K = np.array([[1, 0], [0, 1], [1, 1]]);
  const V = np.array([[10, 0], [0, 10], [5, 5]]);
  print(causal_mask(3));
  const res = attention(Q, K, V, causal_mask(3));
  if (res !== undefined) {
    const [out, weights] = res;
    print(np.round(weights, 3)); // ожидается [[1 0 0] [0.196 0.804 0] [0.248 0.248 0.503]]
    print(np.round(out, 3));     // ожидается [[10 0] [1.956 8.044] [5 5]]
  }
}
