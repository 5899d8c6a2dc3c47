// Поворотные позиционные эмбеддинги (RoPE). Глобальный `np` — маленький аналог NumPy.
// В JavaScript нет перегрузки операторов: a * b и a - b с массивами дают ошибку.
// Пишите np.multiply(a, b), np.subtract(a, b) или методы a.mul(b), a.sub(b).
// Срезов вида cos[2:5] в np нет: строку t даёт cos.get(t), а np.stack собирает строки обратно.

/**
 * Таблицы косинусов и синусов углов поворота для позиций 0 … T − 1.
 *   Угол пары i на позиции t: angle[t][i] = t · base^(−2i / d_head), i = 0 … d_head/2 − 1.
 *   Пара 0 вращается быстрее всех (частота 1), каждая следующая — медленнее.
 * Возвращает [cos, sin]: два массива формы (T, d_head / 2) — cos(angle) и sin(angle).
 * @param {number} T      число позиций
 * @param {number} d_head размер головы (чётный)
 * @param {number} base   основание частот, по умолчанию 10000
 */
function rope_cache(T, d_head, base = 10000) {
  // TODO: показатели 2i / d_head (np.arange с шагом 2), частоты base^(−показатель) (np.power)
  // TODO: углы — произведение столбца позиций (T, 1) на строку частот; вернуть [cos, sin]
}

/**
 * Поворот пар координат x на углы их позиций.
 *   x: (…, T, d_head) — например (B, H, T, d_head); cos, sin: (T_max, d_head / 2) из rope_cache.
 *   Строка t массива x стоит на позиции offset + t, поэтому нужны строки offset … offset + T − 1 таблиц.
 *   Пара i — соседние координаты (x[…, 2i], x[…, 2i+1]); она становится
 *     (x₂ᵢ·cos − x₂ᵢ₊₁·sin,  x₂ᵢ·sin + x₂ᵢ₊₁·cos).
 * Возвращает массив той же формы, что x.
 */
function apply_rope(x, cos, sin, offset = 0) {
  // TODO: строки offset … offset + T − 1 таблиц cos и sin (get и np.stack)
  // TODO: разложить x на пары: np.reshape до (…, T, d_head / 2, 2); первая и вторая координаты пар
  // TODO: повернуть каждую пару, собрать пары обратно (np.stack по последней оси) и вернуть форму x
}

// Поворот вектора (1, 0) на четверть оборота (cos = 0, sin = 1). Нажмите «Запустить», когда функции будут готовы.
{
  const y = apply_rope(np.array([[1, 0]]), np.array([[0]]), np.array([[1]]));
  if (y !== undefined) print(y); // ожидается [[0 1]]
  const tables = rope_cache(4, 4);
  if (tables !== undefined) {
    const [cos, sin] = tables;
    print(np.round(cos, 3)); // в строке 0 — единицы: на позиции 0 угол равен 0
    print(np.round(sin, 3));
  }
}
