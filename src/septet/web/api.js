// HTTP calls to the server's JSON API. Errors become Error objects with the server's sentence.

export async function api(path, { method = 'GET', body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
    });
  } catch (err) {
    const e = new Error('network');
    e.code = 'network';
    throw e;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = new Error(data.message || `HTTP ${response.status}`);
    e.code = data.error || 'http';
    e.messageJa = data.message_ja || ''; // the server's Japanese sentence, where it has one
    e.status = response.status;
    throw e;
  }
  return data;
}

/** The guest behind this browser's cookie, or null. */
export async function me() {
  return (await api('/api/me')).player;
}
