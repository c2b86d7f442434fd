// Markdown (the rules summaries) as safe formatted text: marked (vendored, MIT, see
// vendor/marked.LICENSE) turns it into HTML; raw HTML in the source is shown as text, and the
// result is parsed inert and kept only to a small list of tags and attributes before it
// reaches the page.

import { Marked } from './vendor/marked.esm.js';

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
}[c]));

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    // HTML written in the Markdown is shown as the text it is, never run.
    html({ text }) { return escapeHtml(text); },
  },
});

const TAGS = new Set([
  'P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'LI', 'STRONG', 'EM', 'B', 'I',
  'DEL', 'CODE', 'PRE', 'BLOCKQUOTE', 'A', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD',
]);
const ATTRS = { A: ['href', 'title'], OL: ['start'], TH: ['align'], TD: ['align'] };

function clean(node) {
  for (const child of [...node.children]) {
    if (!TAGS.has(child.tagName)) {
      child.replaceWith(document.createTextNode(child.textContent || ''));
      continue;
    }
    const keep = ATTRS[child.tagName] || [];
    for (const attr of [...child.attributes]) {
      if (!keep.includes(attr.name)) child.removeAttribute(attr.name);
    }
    if (child.tagName === 'A') {
      const href = child.getAttribute('href') || '';
      if (!/^(https?:|\/|#)/i.test(href)) child.removeAttribute('href');
      else if (/^https?:/i.test(href)) { child.setAttribute('rel', 'noopener noreferrer'); child.setAttribute('target', '_blank'); }
    }
    clean(child);
  }
}

/** `text` (Markdown) as a DocumentFragment of safe formatted elements. */
export function markdown(text) {
  const template = document.createElement('template');
  template.innerHTML = marked.parse(String(text ?? ''));
  clean(template.content);
  return template.content;
}
