"use strict";
// The share page: sends each file, note and signed transaction to the run's API with the link's token.
// The token is in the page (data-token) and goes only in the Authorization header: no cookie, no form post.
(function () {
  const body = document.body;
  const run = body.dataset.run;
  const token = body.dataset.token;
  const log = document.getElementById("log");

  function say(text, ok) {
    const item = document.createElement("li");
    item.textContent = text;
    item.className = ok ? "ok" : "bad";
    log.appendChild(item);
  }

  async function send(kind, data, headers) {
    const answer = await fetch("/api/runs/" + encodeURIComponent(run) + "/" + kind, {
      method: "POST", body: data, credentials: "omit", cache: "no-store",
      headers: Object.assign({ "Authorization": "Bearer " + token }, headers),
    });
    let json = {};
    try { json = await answer.json(); } catch (e) { json = {}; }
    const message = json.error && json.error.message ? json.error.message : String(answer.status);
    return { ok: answer.status === 201, id: json.id, message: message };
  }

  document.getElementById("files-form").addEventListener("submit", async function (event) {
    event.preventDefault();
    const input = document.getElementById("files");
    for (const file of Array.from(input.files)) {
      const r = await send("attachments", file, {
        "Content-Type": file.type || "application/octet-stream",
        "X-Growcert-Filename": encodeURIComponent(file.name),
      });
      say(r.ok ? body.dataset.uploaded + ": " + file.name + " → " + r.id : file.name + ": " + r.message, r.ok);
    }
    input.value = "";
  });

  document.getElementById("note-form").addEventListener("submit", async function (event) {
    event.preventDefault();
    const field = document.getElementById("note");
    const r = await send("notes", JSON.stringify({ text: field.value }), { "Content-Type": "application/json" });
    say(r.ok ? body.dataset.recorded + ": " + r.id : r.message, r.ok);
    if (r.ok) { field.value = ""; }
  });

  document.getElementById("jws-form").addEventListener("submit", async function (event) {
    event.preventDefault();
    const field = document.getElementById("jws");
    const r = await send("transactions", JSON.stringify({ jws: field.value.trim() }), { "Content-Type": "application/json" });
    say(r.ok ? body.dataset.recorded + ": " + r.id : r.message, r.ok);
    if (r.ok) { field.value = ""; }
  });
})();
