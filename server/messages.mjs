// Every sentence the service shows (a failed launch, an API error, the launch page's words), in Russian
// and English, said with the grader's say() (this table in the place of a pack's messages).
import { say } from '../grader/index.mjs';

const en = {
  'lti.title': 'The launch from your course failed',
  'lti.nothing':
    'Nothing was recorded. Open the exercise again from your course; if this repeats, show this page to your teacher.',
  'lti.check': 'Failed check: {check}.',
  'lti.login_params': 'The login request lacks iss, login_hint or target_link_uri.',
  'lti.iss': 'The course platform (issuer) is not registered with this tool.',
  'lti.client_id': 'The login names no client id, and the platform has several registered.',
  'lti.id_token': 'The launch carries no readable id_token.',
  'lti.state': 'The launch does not match a login started in this browser (state unknown, expired or different).',
  'lti.signature': "The id_token's signature does not verify with the platform's published keys.",
  'lti.jwks': "The platform's keys (JWKS) could not be fetched.",
  'lti.aud': 'The id_token was issued for another tool (aud).',
  'lti.azp': 'The id_token names another authorized party (azp).',
  'lti.exp': 'The id_token has expired.',
  'lti.iat': 'The id_token was issued too long ago or in the future (iat).',
  'lti.nonce': 'The id_token carries another nonce than this login was given.',
  'lti.nonce_replay': 'This launch was already used (nonce replayed).',
  'lti.deployment': 'The deployment is not registered with this tool.',
  'lti.message_type': 'The message type is not one this tool accepts (resource link or deep linking).',
  'lti.version': 'The LTI version is not 1.3.0.',
  'lti.claims': 'A required claim is missing or malformed: {detail}.',
  'reg.title': 'The registration with your LMS failed',
  'reg.nothing':
    "Nothing was stored here. Start the registration again from the LMS with a valid invitation URL (tools/server platform invite); if the platform's answer is at fault, show this page to its administrator.",
  'reg.invite_unknown':
    "This registration URL's invitation is unknown: ask the tool's operator for a new one (tools/server platform invite).",
  'reg.invite_used':
    "This registration URL's invitation was already used: ask the tool's operator for a new one (tools/server platform invite).",
  'reg.invite_expired':
    "This registration URL's invitation has expired: ask the tool's operator for a new one (tools/server platform invite).",
  'reg.openid_configuration': 'The registration request lacks a valid openid_configuration URL: {detail}.',
  'reg.registration_token': 'The registration_token is not valid: {detail}.',
  'reg.config_fetch': "The platform's OpenID configuration could not be read: {detail}.",
  'reg.config': "The platform's OpenID configuration is not what LTI Dynamic Registration needs: {detail}.",
  'reg.issuer': "The platform's issuer does not match where its configuration was read: {detail}.",
  'reg.scope': 'The platform does not offer grade passback (AGS scores), which this tool needs: {detail}.',
  'reg.registration': "The platform refused or garbled the tool's registration: {detail}.",
  'reg.client_id': "The platform's answer has no valid client_id: {detail}.",
  'reg.deployment': "The platform's answer has an invalid deployment_id: {detail}.",
  'reg.done_title': 'The tool is registered',
  'reg.done': 'attnlab is registered with {name} (client id {client}).',
  'reg.done_deployment': 'Deployment {deployment}: launches from it are accepted.',
  'reg.deployments_open':
    'The platform gave no deployment id: launches are accepted from any deployment its signed launches name.',
  'reg.no_scores':
    'The platform did not grant the grade (AGS score) scope: grades will not reach its gradebook until it does.',
  'api.placement':
    'This link names no known exercise and track ("{exercise}", "{track}"): ask your teacher to place it again.',
  'api.deep_link_role': 'Only a teacher may place an exercise.',
  'api.session': 'Your session is unknown or expired: open the exercise again from your course.',
  'api.csrf': 'The request lacks the session header (X-Attnlab-Session): it was refused.',
  'api.no_placement': 'This session has no exercise placed.',
  'api.instructor_only': 'Only a teacher of this course may see this.',
  'api.code_type': 'The body needs "code", a string.',
  'api.code_size': 'The code is {bytes} bytes, more than the {max} a submission may have.',
  'api.rate': 'More than {n} submissions in a minute: wait a little and check again.',
  'api.not_found': 'No such submission for you.',
  'api.override_score': 'The score needs a number from 0 to {max}.',
  'api.override_reason': 'An override needs a reason (at most 1000 characters).',
  'api.not_deep_link': 'This session is not a placement (deep linking) session.',
  'api.body': 'The request body is not what this endpoint takes: {detail}.',
  'api.late_due':
    'The due time needs an ISO 8601 time with its zone (2026-03-01T23:59:00+03:00), or null for none; got {got}.',
  'api.late_percent': '"{field}" needs a number from 0 to 100 (a percentage); got {got}.',
  'late.comment': 'Late by {days} {days|day|days}: −{penalty}%.',
  'api.internal': 'The service failed on this request; it was logged.',
  'ui.recorded': 'Recorded by your course: {passed} of {total}',
  'ui.recorded_none': 'Graded on the server: {passed} of {total} (this placement sends no grades to the course)',
  'ui.overridden': 'Your teacher set your grade: {score} ({reason})',
  'ui.sending': 'Sending your code to your course…',
  'ui.grading': 'Your course is grading it…',
  'ui.later': 'Your course is busy: it will record this check later.',
  'ui.failed': 'Your course could not record it: {message}',
  'ui.score_failed': 'Graded {passed} of {total}; sending to the gradebook failed, it will be retried.',
  'ui.grading_failed':
    'The course could not grade this check (a fault of the service, not of your code); your teacher can regrade it.',
  'ui.pick': 'Place an exercise',
  'ui.pick_exercise': 'Exercise',
  'ui.pick_track': 'Language',
  'ui.pick_title': 'Title',
  'ui.pick_submit': 'Place it',
  'ui.class': 'Class',
  'ui.student': 'Student',
  'ui.score': 'Score',
  'ui.submissions': 'Submissions',
  'ui.history': 'History',
  'ui.override': 'Override',
  'ui.reason': 'Reason',
  'ui.regrade': 'Regrade everyone',
  'ui.regraded': 'Regraded {n}: {changed} changed.',
  'ui.gradebook': 'Gradebook (CSV)',
  'ui.report': 'Class report',
  'ui.none': 'No submissions yet.',
  'ui.late': 'Late by {days} d: −{penalty}%; {score} of {total} counts.',
  'ui.due': 'Due {due}; late: −{per_day}% a day, at most −{cap}%.',
  'ui.late_policy': 'Due time and late penalty',
  'ui.late_due': 'Due',
  'ui.late_per_day': '% a day',
  'ui.late_cap': 'at most %',
  'ui.late_save': 'Save',
  'ui.late_saved': 'Saved; scores sent again: {resent}.',
};

const ru = {
  'lti.title': 'Запуск из курса не удался',
  'lti.nothing':
    'Ничего не записано. Откройте упражнение из курса ещё раз; если это повторится, покажите эту страницу преподавателю.',
  'lti.check': 'Не пройдена проверка: {check}.',
  'lti.login_params': 'В запросе входа нет iss, login_hint или target_link_uri.',
  'lti.iss': 'Платформа курса (issuer) не зарегистрирована в этом инструменте.',
  'lti.client_id': 'Запрос входа не называет client id, а у платформы их зарегистрировано несколько.',
  'lti.id_token': 'В запуске нет читаемого id_token.',
  'lti.state': 'Запуск не соответствует входу, начатому в этом браузере (state неизвестен, просрочен или другой).',
  'lti.signature': 'Подпись id_token не проверяется опубликованными ключами платформы.',
  'lti.jwks': 'Не удалось получить ключи платформы (JWKS).',
  'lti.aud': 'id_token выдан другому инструменту (aud).',
  'lti.azp': 'id_token называет другую авторизованную сторону (azp).',
  'lti.exp': 'Срок действия id_token истёк.',
  'lti.iat': 'id_token выдан слишком давно или в будущем (iat).',
  'lti.nonce': 'В id_token не тот nonce, что был выдан этому входу.',
  'lti.nonce_replay': 'Этот запуск уже был использован (повтор nonce).',
  'lti.deployment': 'Развёртывание (deployment) не зарегистрировано в этом инструменте.',
  'lti.message_type': 'Тип сообщения не поддерживается (нужна ссылка на ресурс или deep linking).',
  'lti.version': 'Версия LTI не 1.3.0.',
  'lti.claims': 'Нет обязательного поля или оно неверно: {detail}.',
  'reg.title': 'Регистрация в системе курса не удалась',
  'reg.nothing':
    'Здесь ничего не сохранено. Начните регистрацию в системе курса заново с действующей ссылкой-приглашением (tools/server platform invite); если неверен ответ платформы, покажите эту страницу её администратору.',
  'reg.invite_unknown':
    'Приглашение в этой ссылке регистрации неизвестно: попросите у администратора инструмента новое (tools/server platform invite).',
  'reg.invite_used':
    'Приглашение в этой ссылке регистрации уже использовано: попросите у администратора инструмента новое (tools/server platform invite).',
  'reg.invite_expired':
    'Срок приглашения в этой ссылке регистрации истёк: попросите у администратора инструмента новое (tools/server platform invite).',
  'reg.openid_configuration': 'В запросе регистрации нет верного адреса openid_configuration: {detail}.',
  'reg.registration_token': 'Неверный registration_token: {detail}.',
  'reg.config_fetch': 'Не удалось прочитать конфигурацию OpenID платформы: {detail}.',
  'reg.config': 'Конфигурация OpenID платформы не подходит для динамической регистрации LTI: {detail}.',
  'reg.issuer': 'Issuer платформы не совпадает с адресом, по которому прочитана её конфигурация: {detail}.',
  'reg.scope': 'Платформа не предлагает передачу оценок (AGS scores), а она нужна этому инструменту: {detail}.',
  'reg.registration': 'Платформа отклонила регистрацию инструмента или ответила неверно: {detail}.',
  'reg.client_id': 'В ответе платформы нет верного client_id: {detail}.',
  'reg.deployment': 'В ответе платформы неверный deployment_id: {detail}.',
  'reg.done_title': 'Инструмент зарегистрирован',
  'reg.done': 'attnlab зарегистрирован в {name} (client id {client}).',
  'reg.done_deployment': 'Развёртывание {deployment}: запуски из него принимаются.',
  'reg.deployments_open':
    'Платформа не назвала развёртывание: принимаются запуски из любого развёртывания, которое называют её подписанные запуски.',
  'reg.no_scores':
    'Платформа не выдала право передавать оценки (AGS score): оценки не попадут в её журнал, пока она его не выдаст.',
  'api.placement':
    'Ссылка не называет известное упражнение и язык («{exercise}», «{track}»): попросите преподавателя разместить его заново.',
  'api.deep_link_role': 'Размещать упражнения может только преподаватель.',
  'api.session': 'Сессия неизвестна или истекла: откройте упражнение из курса ещё раз.',
  'api.csrf': 'В запросе нет заголовка сессии (X-Attnlab-Session): он отклонён.',
  'api.no_placement': 'В этой сессии не размещено упражнение.',
  'api.instructor_only': 'Это видит только преподаватель курса.',
  'api.code_type': 'В теле запроса нужен "code" — строка.',
  'api.code_size': 'Код занимает {bytes} байт, больше допустимых {max}.',
  'api.rate': 'Больше {n} отправок за минуту: подождите немного и проверьте снова.',
  'api.not_found': 'Такой отправки у вас нет.',
  'api.override_score': 'Оценка — число от 0 до {max}.',
  'api.override_reason': 'Для изменения оценки нужна причина (не длиннее 1000 символов).',
  'api.not_deep_link': 'Эта сессия не для размещения упражнения (deep linking).',
  'api.body': 'Тело запроса не то, что принимает этот адрес: {detail}.',
  'api.late_due':
    'Срок нужен как время ISO 8601 с часовым поясом (2026-03-01T23:59:00+03:00) или null, если срока нет; получено {got}.',
  'api.late_percent': '«{field}» — число от 0 до 100 (проценты); получено {got}.',
  'late.comment': 'Опоздание на {days} {days|день|дня|дней}: −{penalty}%.',
  'api.internal': 'Сервис не смог выполнить запрос; ошибка записана в журнал.',
  'ui.recorded': 'Записано курсом: {passed} из {total}',
  'ui.recorded_none': 'Проверено на сервере: {passed} из {total} (это размещение не передаёт оценки в курс)',
  'ui.overridden': 'Оценку выставил преподаватель: {score} ({reason})',
  'ui.sending': 'Отправляем код в курс…',
  'ui.grading': 'Курс проверяет решение…',
  'ui.later': 'Курс занят: эта проверка будет записана позже.',
  'ui.failed': 'Курс не смог записать результат: {message}',
  'ui.score_failed': 'Проверено: {passed} из {total}; передать оценку в журнал не удалось, попытка будет повторена.',
  'ui.grading_failed':
    'Курс не смог проверить это решение (сбой сервиса, а не вашего кода); преподаватель может перепроверить его.',
  'ui.pick': 'Разместить упражнение',
  'ui.pick_exercise': 'Упражнение',
  'ui.pick_track': 'Язык',
  'ui.pick_title': 'Название',
  'ui.pick_submit': 'Разместить',
  'ui.class': 'Группа',
  'ui.student': 'Студент',
  'ui.score': 'Оценка',
  'ui.submissions': 'Отправки',
  'ui.history': 'История',
  'ui.override': 'Изменить оценку',
  'ui.reason': 'Причина',
  'ui.regrade': 'Перепроверить всех',
  'ui.regraded': 'Перепроверено {n}: изменилось {changed}.',
  'ui.gradebook': 'Журнал (CSV)',
  'ui.report': 'Отчёт по группе',
  'ui.none': 'Отправок пока нет.',
  'ui.late': 'Опоздание {days} дн.: −{penalty}%; засчитано {score} из {total}.',
  'ui.due': 'Срок: {due}; за опоздание −{per_day}% в день, не больше −{cap}%.',
  'ui.late_policy': 'Срок и штраф за опоздание',
  'ui.late_due': 'Срок',
  'ui.late_per_day': '% в день',
  'ui.late_cap': 'не больше %',
  'ui.late_save': 'Сохранить',
  'ui.late_saved': 'Сохранено; заново отправлено оценок: {resent}.',
};

export const MESSAGES = { en, ru };

/** A service sentence in `lang` (ru or en). */
export const t = (lang, key, params) => say(lang, key, params, MESSAGES);

/** The launch page's words (`ui.*`) in `lang`, unformatted: the page fills in their fields. */
export const uiWords = (lang) =>
  Object.fromEntries(
    Object.keys(en)
      .filter((k) => k.startsWith('ui.'))
      .map((k) => [k.slice(3), MESSAGES[lang === 'ru' ? 'ru' : 'en'][k]]),
  );

/** The language a request asks for: `ru` if Accept-Language puts Russian first among ru/en, else `en`. */
export function langOf(acceptLanguage) {
  const m = /\b(ru|en)\b/i.exec(String(acceptLanguage ?? ''));
  return m && m[1].toLowerCase() === 'ru' ? 'ru' : 'en';
}
