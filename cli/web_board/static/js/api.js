// Talking to the server: its JSON answers, and the long jobs it runs (their progress as
// server-sent events, cancellable). Nothing is fetched from anywhere else.

export class ServerError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

export async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ServerError(data.error || response.statusText, response.status);
  return data;
}

/** Start a long job and follow it: `progress(step)`, then `done(answer)` or `failed(message)`.
 * Returns {id, close}. */
export async function follow(body, { progress, done, failed }) {
  const started = await call("POST", "/api/jobs", body);
  const source = new EventSource(`/api/jobs/${started.id}/events`);
  const close = () => source.close();
  source.addEventListener("progress", (e) => progress(JSON.parse(e.data)));
  source.addEventListener("done", (e) => {
    close();
    done(JSON.parse(e.data));
  });
  source.addEventListener("error", (e) => {
    close();
    failed(e.data ? JSON.parse(e.data).error : `${body.kind}: the connection to the server was lost`);
  });
  return { id: started.id, close };
}

export async function cancel(id) {
  return call("DELETE", `/api/jobs/${id}`);
}

/** A report page (analysis, explain) the server renders, as HTML text. */
export async function page(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new ServerError(JSON.parse(text).error, response.status);
  return text;
}
