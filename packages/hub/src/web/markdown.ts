/**
 * READMEs as HTML: markdown-it with raw HTML disabled (so `<script>` in a README is shown as text) and
 * its default link check (no `javascript:`/`vbscript:`/`data:` links). Links open without referrer.
 */
import MarkdownIt from "markdown-it";
import { SafeHtml } from "./html.ts";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i]!.attrSet("rel", "nofollow noopener noreferrer");
  return defaultLinkOpen(tokens, i, options, env, self);
};

/** Safe HTML of the Markdown `text`. */
export function renderMarkdown(text: string): SafeHtml {
  return new SafeHtml(md.render(text));
}
