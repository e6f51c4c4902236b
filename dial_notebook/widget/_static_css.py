"""The static copy's look (js/src/widget.css, light and dark), every rule scoped under
``.dial-static`` so the fragment cannot restyle the notebook around it; and the export's own
page around the fragment. Each entry of the log is drawn lazily (``content-visibility: auto``,
as the widget's): a page showing a copy of thousands of entries lays out those on screen, not
all of them (a 2,000-event copy took 0.4 s of one task; find-in-page still finds them all).

    >>> STATIC_CSS.count("{") == STATIC_CSS.count("}")
    True
"""

from __future__ import annotations

_LIGHT = """
  --dial-bg: var(--jp-layout-color0, #ffffff);
  --dial-surface: var(--jp-layout-color1, #ffffff);
  --dial-sunken: var(--jp-layout-color2, #eeeeee);
  --dial-fg: var(--jp-ui-font-color0, rgba(0, 0, 0, 1));
  --dial-fg-soft: var(--jp-ui-font-color1, rgba(0, 0, 0, 0.87));
  --dial-fg-muted: var(--jp-ui-font-color2, rgba(0, 0, 0, 0.54));
  --dial-border: var(--jp-border-color1, #bdbdbd);
  --dial-border-soft: var(--jp-border-color2, #e0e0e0);
  --dial-accent: var(--jp-brand-color1, #1976d2);
  --dial-accent-fg: var(--jp-ui-inverse-font-color0, #ffffff);
  --dial-danger: var(--jp-error-color1, #d32f2f);
  --dial-ok: var(--jp-success-color1, #388e3c);
  --dial-warn: var(--jp-warn-color1, #f57c00);
  color-scheme: light;"""

# JupyterLab's dark theme, for a page without its variables (an export read in dark mode)
_DARK = """
  --dial-bg: var(--jp-layout-color0, #111111);
  --dial-surface: var(--jp-layout-color1, #212121);
  --dial-sunken: var(--jp-layout-color2, #424242);
  --dial-fg: var(--jp-ui-font-color0, rgba(255, 255, 255, 1));
  --dial-fg-soft: var(--jp-ui-font-color1, rgba(255, 255, 255, 0.87));
  --dial-fg-muted: var(--jp-ui-font-color2, rgba(255, 255, 255, 0.6));
  --dial-border: var(--jp-border-color1, #616161);
  --dial-border-soft: var(--jp-border-color2, #424242);
  --dial-accent: var(--jp-brand-color1, #2196f3);
  --dial-accent-fg: #ffffff;
  --dial-danger: var(--jp-error-color1, #f44336);
  --dial-ok: var(--jp-success-color1, #4caf50);
  --dial-warn: var(--jp-warn-color1, #ff9800);
  color-scheme: dark;"""

_S = ".dial-static"

STATIC_CSS = f"""
{_S} {{{_LIGHT}
  --dial-radius: 8px;
  --dial-font: var(--jp-ui-font-family, system-ui, -apple-system, "Segoe UI", sans-serif);
  --dial-mono: var(--jp-code-font-family, ui-monospace, "SFMono-Regular", Menlo, monospace);
  box-sizing: border-box; display: flex; flex-direction: column; gap: 8px; max-width: 860px;
  margin: 0; padding: 10px 12px 12px; border: 1px solid var(--dial-border-soft);
  border-radius: 10px; background: var(--dial-bg); color: var(--dial-fg-soft);
  font-family: var(--dial-font); font-size: 13px; line-height: 1.45; text-align: left;
}}
@media (prefers-color-scheme: dark) {{ {_S} {{{_DARK} }} }}
body[data-jp-theme-light="false"] {_S} {{{_DARK} }}
body[data-jp-theme-light="true"] {_S} {{{_LIGHT} }}
{_S} *, {_S} *::before, {_S} *::after {{ box-sizing: border-box; }}
{_S} .dial-header {{ display: flex; align-items: center; gap: 6px; color: var(--dial-fg-muted);
  font-size: 12px; }}
{_S} .dial-logo {{ color: var(--dial-accent); }}
{_S} .dial-title {{ font-weight: 600; letter-spacing: 0.01em; }}
{_S} .dial-static-note {{ margin-left: auto; font-size: 11px; }}
{_S} .dial-log {{ display: flex; flex-direction: column; gap: 10px; padding: 2px 2px 4px; }}
{_S} .dial-log > * {{ content-visibility: auto; contain-intrinsic-block-size: auto 120px;
  flex-shrink: 0; }}
{_S} .dial-person {{ display: flex; justify-content: flex-end; }}
{_S} .dial-bubble {{ max-width: 80%; padding: 7px 12px; border-radius: 14px 14px 4px 14px;
  background: var(--dial-accent); color: var(--dial-accent-fg); white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-inform {{ max-width: 92%; color: var(--dial-fg); overflow-wrap: anywhere; }}
{_S} .dial-prose, {_S} .dial-delegate-text {{ white-space: pre-wrap; }}
{_S} .dial-ack {{ color: var(--dial-fg-muted); font-style: italic; }}
{_S} .dial-note, {_S} .dial-more, {_S} .dial-hint, {_S} .dial-signal {{
  color: var(--dial-fg-muted); font-size: 12px; }}
{_S} .dial-signal {{ font-size: 11px; padding-left: 2px; overflow-wrap: anywhere; }}
{_S} .dial-signal code {{ font-family: var(--dial-mono); background: none; padding: 0; }}
{_S} .dial-clipped {{ display: inline-block; margin-left: 4px; padding: 0 6px;
  border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg-muted);
  font-family: var(--dial-font); font-size: 11px; font-style: normal; font-weight: normal; }}
{_S} pre.dial-code {{ margin: 6px 0 0; padding: 8px 10px; max-height: 420px; overflow: auto;
  border: none; border-radius: 6px; background: var(--dial-sunken); color: var(--dial-fg);
  font-family: var(--dial-mono); font-size: 12px; line-height: 1.4; white-space: pre; }}
{_S} pre.dial-code code {{ padding: 0; background: none; color: inherit; font: inherit;
  white-space: inherit; }}
{_S} .dial-mono {{ font-family: var(--dial-mono); font-size: 12px; }}
{_S} .dial-blocked, {_S} .dial-remote {{ margin-top: 6px; padding: 6px 8px;
  border: 1px dashed var(--dial-border); border-radius: 6px; color: var(--dial-fg-muted);
  font-size: 12px; overflow-wrap: anywhere; }}
{_S} .dial-figure {{ margin: 6px 0 0; }}
{_S} .dial-figure img {{ display: block; max-width: 100%; max-height: 420px;
  border-radius: 6px; margin: 0; }}
{_S} .dial-figure figcaption {{ color: var(--dial-fg-muted); font-size: 12px;
  margin-top: 2px; }}
{_S} .dial-chart img {{ max-height: none; height: auto; background: #fff; }}
{_S} .dial-table-wrap {{ margin-top: 6px; max-width: 100%; max-height: 420px; overflow: auto;
  border: 1px solid var(--dial-border-soft); border-radius: 6px; }}
{_S} table.dial-table {{ border-collapse: collapse; width: max-content; min-width: 100%;
  margin: 0; border: none; table-layout: auto; color: var(--dial-fg-soft); font-size: 12px; }}
{_S} table.dial-table thead {{ border: none; }}
{_S} table.dial-table tr, {_S} table.dial-table tbody tr {{ background: none; border: none; }}
{_S} table.dial-table th, {_S} table.dial-table td {{ padding: 4px 10px; border: none;
  border-bottom: 1px solid var(--dial-border-soft); text-align: left; vertical-align: top;
  line-height: 1.4; white-space: normal; overflow-wrap: anywhere; max-width: 40em; }}
{_S} table.dial-table th {{ position: sticky; top: 0; z-index: 2; background: var(--dial-sunken);
  color: var(--dial-fg); font-weight: 600; }}
{_S} table.dial-table td:first-child {{ position: sticky; left: 0; z-index: 1;
  background: var(--dial-surface); font-weight: 600; }}
{_S} table.dial-table th:first-child {{ left: 0; z-index: 3; }}
{_S} table.dial-table td.dial-num {{ text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }}
{_S} .dial-result-body {{ margin-top: 6px; }}
{_S} .dial-result-caption {{ color: var(--dial-fg-soft); font-size: 12px; margin-bottom: 2px; }}
{_S} ul.dial-result-list {{ margin: 4px 0 0; padding-left: 20px; list-style: disc; }}
{_S} ul.dial-card-list {{ display: grid; grid-template-columns: repeat(auto-fill,
  minmax(190px, 1fr)); gap: 8px; margin: 6px 0 0; padding: 0; list-style: none; }}
{_S} .dial-mini-card {{ padding: 8px 10px; border: 1px solid var(--dial-border-soft);
  border-radius: var(--dial-radius); background: var(--dial-surface); overflow-wrap: anywhere; }}
{_S} .dial-mini-title {{ font-weight: 600; color: var(--dial-fg); margin-bottom: 4px; }}
{_S} .dial-mini-card dl {{ display: grid; grid-template-columns: auto 1fr; gap: 1px 8px;
  margin: 0; font-size: 12px; }}
{_S} .dial-mini-card dt {{ color: var(--dial-fg-muted); white-space: nowrap; }}
{_S} .dial-mini-card dd {{ margin: 0; overflow-wrap: anywhere; }}
{_S} .dial-card, {_S} .dial-ask {{ position: relative; padding: 12px 14px;
  border: 1px solid var(--dial-border-soft); border-left: 4px solid var(--dial-accent);
  border-radius: var(--dial-radius); background: var(--dial-surface);
  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.06); }}
{_S} .dial-card.dial-destructive {{ border-left-color: var(--dial-danger); }}
{_S} .dial-card.dial-status-done {{ border-left-color: var(--dial-ok); }}
{_S} .dial-card.dial-status-failed, {_S} .dial-card.dial-status-invalid {{
  border-left-color: var(--dial-danger); }}
{_S} .dial-card.dial-status-dismissed, {_S} .dial-card.dial-status-superseded,
{_S} .dial-card.dial-status-skipped, {_S} .dial-card.dial-status-proposed {{
  border-left-color: var(--dial-border); }}
{_S} .dial-card.dial-status-dismissed .dial-preview,
{_S} .dial-card.dial-status-superseded .dial-preview {{ color: var(--dial-fg-muted); }}
{_S} .dial-card-head {{ display: flex; align-items: center; gap: 8px; margin-bottom: 4px; }}
{_S} .dial-action-name {{ font-family: var(--dial-mono); font-size: 11px;
  color: var(--dial-fg-muted); overflow-wrap: anywhere; }}
{_S} .dial-badge {{ padding: 1px 6px; border-radius: 4px; font-size: 11px; font-weight: 600;
  white-space: nowrap; }}
{_S} .dial-badge-danger {{ color: var(--dial-danger); border: 1px solid var(--dial-danger); }}
{_S} .dial-chip {{ margin-left: auto; padding: 1px 8px; border-radius: 999px;
  background: var(--dial-sunken); color: var(--dial-fg-muted); font-size: 11px;
  white-space: nowrap; }}
{_S} .dial-step-head .dial-chip {{ margin-left: auto; }}
{_S} .dial-chip-pending {{ background: var(--dial-accent); color: var(--dial-accent-fg); }}
{_S} .dial-chip-done {{ color: var(--dial-ok); }}
{_S} .dial-chip-failed, {_S} .dial-chip-invalid {{ color: var(--dial-danger); }}
{_S} .dial-chip-skipped {{ color: var(--dial-warn); }}
{_S} .dial-chip-running, {_S} .dial-chip-confirmed {{ color: var(--dial-accent); }}
{_S} .dial-preview {{ font-size: 16px; font-weight: 600; color: var(--dial-fg);
  line-height: 1.35; overflow-wrap: anywhere; white-space: pre-wrap; }}
{_S} .dial-agent-text {{ margin-top: 4px; color: var(--dial-fg-soft); white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-outcome {{ margin-top: 8px; color: var(--dial-fg-soft); overflow-wrap: anywhere; }}
{_S} .dial-outcome-done strong {{ color: var(--dial-ok); }}
{_S} .dial-outcome-failed strong, {_S} .dial-outcome-invalid strong {{
  color: var(--dial-danger); }}
{_S} .dial-outcome-dismissed strong, {_S} .dial-outcome-superseded strong {{
  color: var(--dial-fg-muted); }}
{_S} .dial-edited, {_S} .dial-edited-mark {{ color: var(--dial-fg-muted); font-size: 12px;
  font-weight: normal; }}
{_S} .dial-by-rule, {_S} .dial-reason, {_S} .dial-comments {{ color: var(--dial-fg-muted);
  font-size: 12px; margin-top: 4px; }}
{_S} .dial-comments ul {{ margin: 2px 0 0; padding-left: 18px; }}
{_S} .dial-comment-field {{ font-family: var(--dial-mono, monospace); }}
{_S} .dial-result {{ color: var(--dial-fg-muted); }}
{_S} .dial-waiting {{ margin-top: 10px; padding: 6px 10px; border-radius: 6px;
  border: 1px dashed var(--dial-accent); color: var(--dial-fg); font-size: 12px; }}
{_S} .dial-issue {{ margin-top: 8px; padding: 8px 10px; border-radius: 6px;
  border: 1px solid var(--dial-danger); color: var(--dial-fg); overflow-wrap: anywhere;
  background: color-mix(in srgb, var(--dial-danger) 8%, transparent); }}
{_S} .dial-issue ul {{ margin: 4px 0 0; padding-left: 18px; list-style: disc; }}
{_S} .dial-issue code {{ font-family: var(--dial-mono); font-size: 12px; background: none;
  padding: 0; }}
{_S} .dial-status-line {{ color: var(--dial-fg-muted); font-size: 12px; padding-left: 6px;
  border-left: 2px solid var(--dial-border-soft); overflow-wrap: anywhere; }}
{_S} .dial-status-line.dial-outcome-done {{ border-left-color: var(--dial-ok); }}
{_S} .dial-status-line.dial-outcome-failed, {_S} .dial-status-line.dial-outcome-invalid,
{_S} .dial-status-line.dial-error {{ border-left-color: var(--dial-danger); }}
{_S} .dial-status-line.dial-warn {{ border-left-color: var(--dial-warn); }}
{_S} .dial-no-reply {{ display: flex; flex-wrap: wrap; align-items: center; gap: 8px;
  padding: 8px 12px; border: 1px solid var(--dial-warn); border-radius: var(--dial-radius);
  color: var(--dial-fg); overflow-wrap: anywhere; }}
{_S} .dial-ask {{ border-left-color: var(--dial-warn); }}
{_S} .dial-ask.dial-status-answered, {_S} .dial-ask.dial-status-open {{
  border-left-color: var(--dial-border); }}
{_S} .dial-ask-text {{ font-size: 14px; font-weight: 600; color: var(--dial-fg);
  white-space: pre-wrap; overflow-wrap: anywhere; }}
{_S} ul.dial-options-static {{ display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 0;
  padding: 0; list-style: none; }}
{_S} .dial-option-static {{ padding: 2px 10px; border: 1px solid var(--dial-border-soft);
  border-radius: 6px; background: var(--dial-bg); color: var(--dial-fg-soft); font-size: 12px;
  overflow-wrap: anywhere; }}
{_S} .dial-option-static.dial-chosen {{ border-color: var(--dial-accent);
  box-shadow: inset 0 0 0 1px var(--dial-accent); color: var(--dial-fg); font-weight: 600; }}
{_S} .dial-option-static.dial-disabled {{ opacity: 0.55; }}
{_S} .dial-choice-desc {{ color: var(--dial-fg-muted); font-weight: normal; }}
{_S} .dial-answered {{ margin-top: 6px; color: var(--dial-fg-soft); white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-you {{ color: var(--dial-fg-muted); }}
{_S} .dial-stopped-reply {{ display: flex; flex-direction: column; gap: 4px; }}
{_S} .dial-partial {{ color: var(--dial-fg-soft); }}
{_S} ol.dial-steps {{ list-style: none; margin: 8px 0 0; padding: 0; display: flex;
  flex-direction: column; gap: 6px; }}
{_S} .dial-step {{ border: 1px solid var(--dial-border-soft); border-radius: 6px;
  padding: 6px 8px; background: var(--dial-bg); }}
{_S} .dial-step-failed {{ border-color: var(--dial-danger); }}
{_S} .dial-step-head {{ display: flex; align-items: center; gap: 8px; font-size: 12px; }}
{_S} .dial-env {{ font-family: var(--dial-mono); font-size: 11px; padding: 0 6px;
  border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg-soft); }}
{_S} .dial-step-label {{ color: var(--dial-fg-soft); overflow-wrap: anywhere; }}
{_S} pre.dial-command, {_S} pre.dial-output {{ margin: 4px 0 0; padding: 6px 8px;
  border: none; border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg);
  font-family: var(--dial-mono); font-size: 12px; line-height: 1.4; white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} pre.dial-command {{ unicode-bidi: isolate; }}
{_S} pre.dial-output {{ max-height: 240px; overflow: auto; background: transparent;
  border-left: 2px solid var(--dial-border-soft); border-radius: 0; }}
{_S} .dial-step-count {{ font-size: 12px; color: var(--dial-fg-soft); margin-top: 8px; }}
{_S} .dial-step-lines {{ font-size: 11px; color: var(--dial-fg-muted); }}
{_S} .dial-step-suspicious {{ border-color: var(--dial-danger); border-width: 2px; }}
{_S} .dial-suspicious {{ color: var(--dial-danger); font-size: 12px; font-weight: 600;
  margin-top: 4px; }}
{_S} .dial-hidden-char {{ color: var(--dial-danger); border-radius: 3px; padding: 0 1px;
  background: color-mix(in srgb, var(--dial-danger) 14%, transparent); font-weight: 600; }}
{_S} .dial-step-outcome {{ font-size: 12px; margin-top: 4px; overflow-wrap: anywhere; }}
{_S} .dial-step-outcome.dial-outcome-failed, {_S} .dial-step-outcome.dial-outcome-skipped {{
  color: var(--dial-danger); }}
{_S} .dial-skipped {{ font-style: italic; }}
{_S} .dial-elsewhere, {_S} .dial-delegate {{ border-left: 2px dashed var(--dial-border);
  padding-left: 8px; color: var(--dial-fg-soft); overflow-wrap: anywhere; }}
{_S} .dial-elsewhere-text {{ white-space: pre-wrap; overflow-wrap: anywhere; }}
{_S} .dial-card-ack {{ white-space: pre-wrap; margin-top: 6px; color: var(--dial-fg-muted);
  font-style: italic; font-size: 13px; overflow-wrap: anywhere; }}
{_S} .dial-card-ack-who {{ font-style: normal; font-weight: 600; }}
{_S} .dial-unknown {{ font-family: var(--dial-mono); font-size: 11px; overflow-wrap: anywhere; }}
{_S} details {{ margin: 0; }}
{_S} details > summary {{ cursor: pointer; color: var(--dial-fg-muted); font-size: 12px;
  overflow-wrap: anywhere; }}
{_S} details > summary::marker {{ color: var(--dial-fg-muted); }}
{_S} .dial-payload {{ margin-top: 8px; }}
{_S} .dial-context {{ padding: 4px 8px; border: 1px dashed var(--dial-border-soft);
  border-radius: 6px; font-size: 12px; color: var(--dial-fg-soft); }}
{_S} dl.dial-context-list {{ display: grid; grid-template-columns: max-content 1fr;
  gap: 2px 10px; margin: 6px 0 2px; }}
{_S} dl.dial-context-list dd {{ margin: 0; overflow-wrap: anywhere; }}
{_S} .dial-wire {{ margin: -4px 0 0; padding: 0 2px; }}
{_S} .dial-wire > summary {{ font-size: 11px; }}
{_S} .dial-wire-label {{ margin-top: 6px; color: var(--dial-fg-muted); font-size: 11px;
  font-weight: 600; }}
{_S} .dial-wire-hidden {{ margin-top: 2px; color: var(--dial-danger); font-size: 11px; }}
{_S} pre.dial-wire-text {{ margin: 2px 0 0; padding: 6px 8px; max-height: 320px; overflow: auto;
  border: none; border-radius: 4px; background: var(--dial-sunken); color: var(--dial-fg-soft);
  font-family: var(--dial-mono); font-size: 11px; line-height: 1.4; white-space: pre-wrap;
  overflow-wrap: anywhere; }}
{_S} .dial-markdown {{ color: var(--dial-fg); }}
{_S} .dial-md-p {{ margin: 0 0 6px; white-space: pre-wrap; }}
{_S} .dial-md-list {{ margin: 0 0 6px; padding-left: 22px; }}
{_S} ul.dial-md-list {{ list-style: disc; }}
{_S} ol.dial-md-list {{ list-style: decimal; }}
{_S} .dial-md-h {{ margin: 2px 0 6px; font-weight: 700; color: var(--dial-fg); }}
{_S} .dial-md-h1 {{ font-size: 15px; }}
{_S} .dial-md-h2, {_S} .dial-md-h3 {{ font-size: 13.5px; }}
{_S} code.dial-md-code {{ padding: 0 4px; border-radius: 4px; background: var(--dial-sunken);
  font-family: var(--dial-mono); font-size: 12px; }}
@media print {{ {_S} pre.dial-code, {_S} pre.dial-wire-text, {_S} pre.dial-output,
  {_S} .dial-table-wrap {{ max-height: none; overflow: visible; }} }}
"""

#: The export's own page around the fragment (not scoped: it is the whole document).
PAGE_CSS = """
html { color-scheme: light dark; }
body { margin: 0; padding: 24px 16px 48px; background: #f5f6f8; }
main { max-width: 880px; margin: 0 auto; }
@media (prefers-color-scheme: dark) { body { background: #000000; } }
"""
