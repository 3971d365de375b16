/** The cookie that carries a dashboard session. */
export const SESSION_COOKIE = 'adline_session';
