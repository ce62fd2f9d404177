// The sandbox console: polls the world as the chosen member sees it, draws the channel, sends
// commands, clicks, menu choices and modals. User text is only ever set as textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const API = "api/";
const pick = { guild: "", member: "", channel: "" };
let digest = "";
let world = null;
let poller = null;          // the AbortController of the running poll
let dismissedModal = "";    // a modal the person cancelled (its interaction token)
let suggestions = [];
let active = -1;

function nonce() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Date.now().toString(36) + Math.random().toString(36).slice(2);
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

async function post(what, body) {
  const response = await fetch(API + what, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ guild: pick.guild, member: pick.member, channel: pick.channel,
                           nonce: nonce(), ...body }),
  });
  return response.json();
}

// ------------------------------------------------------------------ polling

function restartPolling() {
  if (poller) poller.abort();
  digest = "";
  poll();
}

async function poll() {
  const controller = new AbortController();
  poller = controller;
  while (!controller.signal.aborted) {
    const query = new URLSearchParams({ ...pick, since: digest });
    try {
      const response = await fetch(API + "state?" + query, { signal: controller.signal });
      const state = await response.json();
      if (controller.signal.aborted) return;
      if (!response.ok) throw new Error(state.error);
      setStatus(state.connected ? "bot connected" : "no bot connected", !state.connected);
      if (state.digest !== digest) { digest = state.digest; draw(state); }
    } catch (error) {
      if (controller.signal.aborted) return;
      setStatus("sandbox unreachable, retrying", true);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

function setStatus(text, down) {
  const status = $("status");
  status.textContent = text;
  status.classList.toggle("down", down);
}

// ------------------------------------------------------------------ drawing

function draw(state) {
  world = state;
  fillSelect($("guild"), state.guilds.map((g) => [g.id, g.name]), "guild", state.guild);
  if (!state.members) return;
  const owner = state.members.find((m) => m.owner);
  fillSelect($("member"), state.members.map((m) => [m.id, memberLabel(m)]), "member",
             owner && owner.id);
  const general = state.channels.find((c) => c.name === "tournaments") || state.channels[0];
  const channels = state.channels.map((c) => [c.id, c.thread ? "\u21b3 " + c.name : "#" + c.name]);
  channels.push(["dm", "DMs with the bot"]);
  fillSelect($("channel"), channels, "channel", general && general.id);
  drawMembers(state.members);
  drawMessages(state.messages);
  drawModal(state.modal);
}

function memberLabel(m) {
  const tags = [];
  if (m.owner) tags.push("owner");
  else if (m.manager) tags.push("manager");
  if (m.organiser) tags.push("organiser");
  return m.display_name + (tags.length ? " (" + tags.join(", ") + ")" : "");
}

function fillSelect(select, entries, key, fallback) {
  const keep = pick[key];
  select.replaceChildren(...entries.map(([value, label]) => el("option", { value, text: label })));
  const wanted = entries.some(([value]) => value === keep) ? keep : fallback || "";
  select.value = wanted;
  if (wanted !== pick[key]) { pick[key] = wanted; restartPolling(); }
}

function mentionsAsNames(text) {
  const names = new Map((world.members || []).map((m) => [m.id, m.display_name]));
  const channels = new Map((world.channels || []).map((c) => [c.id, c.name]));
  return text
    .replace(/<@!?(\d+)>/g, (all, id) => "@" + (names.get(id) || id))
    .replace(/<#(\d+)>/g, (all, id) => "#" + (channels.get(id) || id))
    .replace(/<t:(\d+)(?::\w)?>/g, (all, s) => new Date(Number(s) * 1000).toLocaleString());
}

// Discord's markdown, the parts the bot uses: ```blocks```, `code`, **bold**, *italic*,
// ~~strike~~; built as nodes, so the text is never parsed as HTML.
const MARKS = [["```", "pre"], ["`", "code"], ["**", "strong"], ["~~", "s"], ["*", "em"]];

function richText(text) {
  const fragment = document.createDocumentFragment();
  let rest = mentionsAsNames(text);
  while (rest) {
    let best = null;
    for (const [mark, tag] of MARKS) {
      const start = rest.indexOf(mark);
      if (start < 0) continue;
      const end = rest.indexOf(mark, start + mark.length);
      if (end < 0) continue;
      if (!best || start < best.start) best = { start, end, mark, tag };
    }
    if (!best) { fragment.append(rest); break; }
    fragment.append(rest.slice(0, best.start));
    const inner = rest.slice(best.start + best.mark.length, best.end);
    const node = el(best.tag);
    if (best.tag === "pre") node.textContent = inner.replace(/^\w*\n/, "");  // a language tag
    else if (best.tag === "code") node.textContent = inner;
    else node.append(richText(inner));
    fragment.append(node);
    rest = rest.slice(best.end + best.mark.length);
  }
  return fragment;
}

function drawMessages(messages) {
  const box = $("messages");
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  box.replaceChildren(...messages.map(drawMessage));
  if (!messages.length) box.append(el("p", { class: "meta", text: "No messages here yet." }));
  if (atBottom) window.scrollTo(0, document.body.scrollHeight);
}

function drawMessage(m) {
  const meta = el("div", { class: "meta" }, el("span", { class: "author", text: m.author }));
  if (m.command) meta.append(`used /${m.command}` + (m.invoker ? ` (${m.invoker}) ` : " "));
  if (m.ephemeral) meta.append("\u2022 only you can see this ");
  if (m.edited) meta.append("\u2022 edited");
  const node = el("article", { class: "message" + (m.ephemeral ? " ephemeral" : ""),
                               "data-id": m.id }, meta);
  if (m.thinking) node.append(el("div", { class: "content", text: "swissbot is thinking\u2026" }));
  if (m.content) node.append(el("div", { class: "content" }, richText(m.content)));
  for (const embed of m.embeds) node.append(drawEmbed(embed));
  for (const file of m.attachments) node.append(drawAttachment(file));
  if (m.components.length) node.append(drawComponents(m));
  return node;
}

function drawEmbed(e) {
  const color = e.color ? "#" + e.color.toString(16).padStart(6, "0") : undefined;
  const box = el("div", { class: "embed" });
  if (color) box.style.borderLeftColor = color;
  if (e.author && e.author.name) box.append(el("div", { class: "meta", text: e.author.name }));
  if (e.title) {
    const title = el("div", { class: "embed-title" });
    if (e.url) title.append(el("a", { href: e.url, target: "_blank", rel: "noopener", text: e.title }));
    else title.append(richText(e.title));
    box.append(title);
  }
  if (e.description) box.append(el("div", { class: "embed-description" }, richText(e.description)));
  if (e.fields && e.fields.length) {
    box.append(el("div", { class: "fields" }, ...e.fields.map((f) =>
      el("div", { class: "field" + (f.inline ? "" : " wide") },
         el("div", { class: "field-name" }, richText(f.name)),
         el("div", { class: "field-value" }, richText(f.value))))));
  }
  if (e.image && e.image.url && /^https?:|^attachment:/.test(e.image.url)) {
    box.append(el("div", { class: "meta", text: "image: " + e.image.url }));
  }
  if (e.footer && e.footer.text) box.append(el("div", { class: "embed-footer", text: e.footer.text }));
  return box;
}

function drawAttachment(file) {
  const link = el("a", { href: file.url, target: "_blank", rel: "noopener",
                         text: `\u{1F4CE} ${file.filename} (${file.size} bytes)` });
  const box = el("div", { class: "attachment" }, link);
  if (/\.(png|jpe?g|gif|webp)$/i.test(file.filename)) box.append(el("img", { src: file.url, alt: file.filename }));
  return box;
}

function drawComponents(m) {
  const box = el("div", { class: "components" });
  for (const row of m.components) {
    const line = el("div", { class: "row" });
    for (const c of row.components || []) {
      if (c.type === 2 && c.style === 5) {
        line.append(el("a", { href: c.url, target: "_blank", rel: "noopener", text: c.label || c.url }));
      } else if (c.type === 2) {
        line.append(el("button", {
          type: "button", class: "component style-" + c.style, disabled: c.disabled,
          "data-custom-id": c.custom_id, text: (c.emoji && c.emoji.name ? c.emoji.name + " " : "") + (c.label || ""),
          onclick: (event) => act(event.currentTarget, "component", { message: m.id, custom_id: c.custom_id }),
        }));
      } else if ([3, 5, 6, 7, 8].includes(c.type)) {
        line.append(drawSelect(m, c));
      }
    }
    box.append(line);
  }
  return box;
}

function drawSelect(m, c) {
  const many = (c.max_values || 1) > 1;
  const select = el("select", { "data-custom-id": c.custom_id, multiple: many, disabled: c.disabled,
                                "aria-label": c.placeholder || "Choose" });
  if (!many) select.append(el("option", { value: "", text: c.placeholder || "Choose\u2026" }));
  const entries = c.type === 3 ? (c.options || []).map((o) => [o.value, o.label])
    : c.type === 7 ? world.channels.map((ch) => [ch.id, "#" + ch.name])
    : world.members.map((mem) => [mem.id, mem.display_name]);
  for (const [value, label] of entries) select.append(el("option", { value, text: label }));
  const send = () => {
    const values = [...select.selectedOptions].map((o) => o.value).filter((v) => v !== "");
    if (values.length) act(select, "component", { message: m.id, custom_id: c.custom_id, values });
  };
  if (!many) { select.addEventListener("change", send); return select; }
  return el("span", {}, select, el("button", { type: "button", text: "Choose", onclick: send }));
}

async function act(control, what, body) {
  control.disabled = true;  // one action per click: a double click sends once
  try {
    const answer = await post(what, body);
    if (!answer.ok) showError(answer.error);
  } finally {
    control.disabled = false;
  }
}

function drawModal(modal) {
  const dialog = $("modal");
  if (!modal || modal.token === dismissedModal) { if (dialog.open) dialog.close(); return; }
  if (dialog.open && dialog.dataset.token === modal.token) return;
  dialog.dataset.token = modal.token;
  $("modal-title").textContent = modal.title || "";
  $("modal-error").hidden = true;
  const fields = [];
  for (const row of modal.components || []) {
    for (const c of row.components || []) {
      if (c.type !== 4) continue;
      const props = { name: c.custom_id, required: c.required !== false, placeholder: c.placeholder,
                      minlength: c.min_length, maxlength: c.max_length };
      const input = c.style === 2 ? el("textarea", { ...props, rows: 4 }) : el("input", props);
      input.value = c.value || "";
      fields.push(el("label", { text: c.label || c.custom_id }, input));
    }
  }
  $("modal-fields").replaceChildren(...fields);
  dialog.showModal();
}

// ------------------------------------------------------------------ the command line

function showError(message, column) {
  const box = $("error");
  if (!message) { box.hidden = true; return; }
  box.hidden = false;
  box.textContent = column ? `column ${column}: ${message}` : message;
  if (column) {
    const input = $("command");
    input.focus();
    input.setSelectionRange(column - 1, input.value.length);
  }
}

let completing = 0;
async function complete() {
  const ticket = ++completing;
  const query = new URLSearchParams({ ...pick, text: $("command").value });
  const response = await fetch(API + "complete?" + query);
  if (ticket !== completing || !response.ok) return;
  suggestions = await response.json();
  active = suggestions.length ? 0 : -1;
  drawSuggestions();
}

function drawSuggestions() {
  const list = $("suggestions");
  list.hidden = !suggestions.length;
  list.replaceChildren(...suggestions.map((s, i) => el("li", {
    role: "option", class: i === active ? "active" : "", "aria-selected": i === active ? "true" : "false",
    onmousedown: (event) => { event.preventDefault(); accept(i); },
  }, el("span", { text: s.label }), el("span", { class: "hint", text: s.hint }))));
}

function accept(index) {
  const input = $("command");
  input.value = suggestions[index].text;
  input.focus();
  complete();
}

$("command").addEventListener("input", () => { showError(""); complete(); });
$("command").addEventListener("focus", complete);
$("command").addEventListener("blur", () => { $("suggestions").hidden = true; });
$("command").addEventListener("keydown", (event) => {
  if (event.key === "Tab" && suggestions.length) {
    event.preventDefault();
    accept(Math.max(active, 0));
  } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    if (!suggestions.length) return;
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    active = (active + step + suggestions.length) % suggestions.length;
    drawSuggestions();
  } else if (event.key === "Escape") {
    $("suggestions").hidden = true;
  }
});

$("command-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("command");
  const button = $("send");
  if (!input.value.trim() || button.disabled) return;
  button.disabled = true;
  try {
    const answer = await post("command", { text: input.value });
    if (answer.ok) { input.value = ""; showError(""); suggestions = []; drawSuggestions(); }
    else showError(answer.error, answer.column);
  } finally {
    button.disabled = false;
  }
});

// ------------------------------------------------------------------ members and modals

function drawMembers(members) {
  const list = $("member-list");
  if (list.contains(document.activeElement)) return;  // do not redraw under the typing hand
  list.replaceChildren(...members.map((m) => {
    const nick = el("input", { value: m.display_name, maxlength: 32, "aria-label": "Name of " + m.username });
    const organiser = el("input", { type: "checkbox", checked: m.organiser, "aria-label": "organiser" });
    return el("li", { "data-member": m.id },
      el("span", { text: m.username }), nick,
      el("button", { type: "button", text: "Rename", onclick: async () => {
        const answer = await post("member", { member: m.id, nick: nick.value });
        if (!answer.ok) showError(answer.error);
      } }),
      el("label", {}, organiser, " organiser"));
  }));
  for (const box of list.querySelectorAll("input[type=checkbox]")) {
    box.addEventListener("change", async () => {
      const id = box.closest("li").dataset.member;
      const answer = await post("member", { member: id, organiser: box.checked });
      if (!answer.ok) showError(answer.error);
    });
  }
}

$("add-member").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("member", { member: "", username: $("new-username").value,
                                        organiser: $("new-organiser").checked });
  if (answer.ok) { $("new-username").value = ""; pick.member = answer.member; restartPolling(); }
  else showError(answer.error);
});

$("modal-cancel").addEventListener("click", () => {
  dismissedModal = $("modal").dataset.token;
  $("modal").close();
});

$("modal-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const values = {};
  for (const input of $("modal-fields").querySelectorAll("input, textarea")) values[input.name] = input.value;
  const button = $("modal-submit");
  button.disabled = true;
  try {
    const answer = await post("modal", { token: $("modal").dataset.token, values });
    if (answer.ok) $("modal").close();
    else { $("modal-error").hidden = false; $("modal-error").textContent = answer.error; }
  } finally {
    button.disabled = false;
  }
});

for (const key of ["guild", "member", "channel"]) {
  $(key).addEventListener("change", (event) => {
    pick[key] = event.target.value;
    if (key === "guild") { pick.member = ""; pick.channel = ""; }
    restartPolling();
  });
}

restartPolling();
