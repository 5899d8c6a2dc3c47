// KV-кэш и внимание с группами запросов (GQA). Глобальный `np` — маленький аналог NumPy.
// Операторы JavaScript с массивами не работают: пишите np.matmul, np.divide, np.concatenate, …
// (или методы a.matmul(b), a.div(b)). Срезов вида k[:, :, 2:5] в np нет: по оси времени массивы
// склеиваются через np.concatenate(список, { axis: 2 }), а np.stack собирает копии в новую ось.

// Из прошлых упражнений — готово, пользуйтесь.
function softmax(x) {
  const e = np.exp(np.subtract(x, np.max(x, { axis: -1, keepdims: true })));
  return np.divide(e, np.sum(e, { axis: -1, keepdims: true }));
}

/** (…, T, n_heads·d_head) → (…, n_heads, T, d_head): голова h — столбцы h·d_head … (h+1)·d_head − 1. */
function split_heads(x, n_heads) {
  const d_head = x.shape.at(-1) / n_heads;
  return np.swapaxes(np.reshape(x, [...x.shape.slice(0, -1), n_heads, d_head]), -3, -2);
}

/** (…, H, T, d_head) → (…, T, H·d_head), обратная к split_heads. */
function merge_heads(x) {
  const [H, T, d_head] = x.shape.slice(-3);
  return np.reshape(np.swapaxes(x, -3, -2), [...x.shape.slice(0, -3), T, H * d_head]);
}

/** RoPE: строка t массива x (…, T, d_head) поворачивается на углы позиции offset + t из таблиц cos, sin (T_max, d_head / 2). */
function apply_rope(x, cos, sin, offset = 0) {
  const shape = x.shape, T = shape.at(-2), d = shape.at(-1);
  const rows = (table) => np.stack(Array.from({ length: T }, (_, t) => table.get(offset + t)));
  const c = rows(cos), s = rows(sin);
  const pairs = np.reshape(x, [-1, T, d / 2, 2]);
  const a = pairs.get(null, null, null, 0), b = pairs.get(null, null, null, 1);
  const ra = np.subtract(np.multiply(a, c), np.multiply(b, s));
  const rb = np.add(np.multiply(a, s), np.multiply(b, c));
  return np.reshape(np.stack([ra, rb], { axis: -1 }), shape);
}

/**
 * Сколько байт занимает KV-кэш.
 *   В каждом из n_layers слоёв для каждого из seq_len токенов каждой из batch последовательностей
 *   хранятся ключ и значение: по вектору длины d_head на каждую из n_kv_heads KV-голов,
 *   каждое число — dtype_bytes байт (2 для bf16).
 * Возвращает число (байты).
 */
function kv_cache_bytes(n_layers, n_kv_heads, d_head, seq_len, batch, dtype_bytes = 2) {
  // TODO: перемножить всё, что хранится; не забыть, что хранятся и K, и V
}

/**
 * Повтор KV-голов для внимания с группами запросов (GQA).
 *   x: (B, H_kv, T, d) → (B, H_kv·n_rep, T, d).
 *   Голова h результата — KV-голова h // n_rep: каждая KV-голова повторена n_rep раз подряд
 *   (при H_kv = 2, n_rep = 3 порядок 0, 0, 0, 1, 1, 1).
 * @param x массив (B, H_kv, T, d)
 * @param {number} n_rep сколько голов запросов приходится на одну KV-голову
 */
function repeat_kv(x, n_rep) {
  // TODO: n_rep копий x, сложенных в новую ось сразу после оси голов (np.stack), затем reshape
}

/**
 * Шаг внимания с KV-кэшем.
 *   x: (B, T, d_model) — T новых токенов; W_q, W_o: (d_model, d_model);
 *   W_k, W_v: (d_model, n_kv_heads·d_head), где d_head = d_model / n_heads (отсюда n_kv_heads).
 *   cache: [k, v], каждый (B, n_kv_heads, T_past, d_head), или null — кэша ещё нет (T_past = 0).
 *   rope: [cos, sin] из rope_cache или null; поворачивает q и новые k на позиции T_past … T_past + T − 1.
 *   Запрос i нового блока видит ключи 0 … T_past + i. Голова запросов h работает с KV-головой h // n_rep.
 * Возвращает [out, [k, v]]:
 *   out — (B, T, d_model), склеенные головы, умноженные на W_o;
 *   [k, v] — кэш, выросший на T позиций: (B, n_kv_heads, T_past + T, d_head), ключи уже после RoPE,
 *   головы не повторены.
 */
function attend_with_cache(x, W_q, W_k, W_v, W_o, n_heads, cache = null, rope = null) {
  // TODO: q, k, v — проекции x, разбитые на головы (у k и v — n_kv_heads голов)
  // TODO: T_past — длина кэша; RoPE для q и k со сдвигом T_past
  // TODO: приклеить новые k, v к кэшу по оси времени (ось 2)
  // TODO: повторить KV-головы, оценки / √d_head, маска (T, T_past + T), softmax, · V, склейка голов, W_o
  // TODO: вернуть [out, [k, v]]
}

// Числа из урока и проверка кэша: префилл из 3 токенов и ещё один токен против одного прохода по всем 4.
// Нажмите «Запустить», когда функции будут готовы.
{
  const kib = kv_cache_bytes(32, 8, 128, 1, 1);
  if (kib !== undefined) print(kib / 1024); // ожидается 128 (КиБ на токен)
  const rep = repeat_kv(np.arange(4).reshape([1, 2, 2, 1]), 2);
  if (rep !== undefined) print(rep.reshape([8]).tolist()); // ожидается [0, 1, 0, 1, 2, 3, 2, 3]
  const rng = np.random.default_rng(0);
  const x = rng.standard_normal([1, 4, 8]);
  const W = [[8, 8], [8, 4], [8, 4], [8, 8]].map((s) => np.multiply(rng.standard_normal(s), 0.35));
  const whole = attend_with_cache(x, ...W, 4); // 4 головы запросов, 2 KV-головы
  if (whole !== undefined) {
    const [full] = whole;
    const [, cache] = attend_with_cache(np.stack([x.get(0, 0), x.get(0, 1), x.get(0, 2)]).reshape([1, 3, 8]), ...W, 4);
    const [last] = attend_with_cache(x.get(0, 3).reshape([1, 1, 8]), ...W, 4, cache);
    print(np.allclose(last.reshape([8]), full.get(0, 3))); // ожидается true
  }
}
