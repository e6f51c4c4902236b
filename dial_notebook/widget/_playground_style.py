"""The playground's style sheet: its panels, tags, findings and editor, in JupyterLab's theme
variables (so the panels follow the light and dark themes).

    >>> STYLE.startswith("<style>") and ".dpg-panel" in STYLE
    True
"""

STYLE = """<style>
.dpg {font-family: var(--jp-ui-font-family); font-size: 15px; line-height: 1.45;
  color: var(--jp-content-font-color1);}
.dpg h2 {font-size: 26px; margin: 4px 0 6px;}
.dpg h3 {font-size: 17px; margin: 2px 0 8px; padding-bottom: 4px;
  border-bottom: 2px solid var(--jp-brand-color1);}
.dpg-panel {border: 1px solid var(--jp-border-color1); border-radius: 8px; padding: 10px 14px;
  background: var(--jp-layout-color1); box-sizing: border-box; min-height: 120px;}
.dpg-muted {color: var(--jp-content-font-color2);}
.dpg > p:first-child {margin-top: 0;}
.dpg code, .dpg pre, .dpg-mono {font-family: var(--jp-code-font-family); font-size: 14px;}
.dpg pre {background: var(--jp-layout-color2); padding: 8px 10px; border-radius: 6px;
  margin: 4px 0; white-space: pre-wrap; word-break: break-word;}
.dpg-tag {font-family: var(--jp-code-font-family); font-weight: 700;
  color: var(--jp-brand-color1);}
.dpg-attr {font-family: var(--jp-code-font-family); font-size: 14px;}
.dpg-attr b {color: var(--jp-warn-color0, var(--jp-content-font-color1)); font-weight: 600;}
.dpg ul.dpg-tree {list-style: none; padding-left: 0; margin: 4px 0;}
.dpg ul.dpg-tree > li {border-left: 4px solid var(--jp-brand-color2); padding: 4px 0 6px 10px;
  margin-bottom: 8px;}
.dpg-role {font-size: 13px; color: var(--jp-content-font-color2); font-style: italic;}
.dpg-badge {display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px;
  font-weight: 700; text-transform: uppercase; color: white; margin-right: 6px;}
.dpg-error {background: var(--jp-error-color1);}
.dpg-warning {background: var(--jp-warn-color1);}
.dpg-info {background: var(--jp-info-color1);}
.dpg-ok {color: var(--jp-success-color1); font-weight: 700;}
.dpg-finding {margin: 0 0 10px; padding-bottom: 6px; border-bottom: 1px dashed
  var(--jp-border-color2);}
.dpg-repair {border-left: 4px solid var(--jp-warn-color1); padding: 2px 0 4px 10px;
  margin: 6px 0;}
.dpg pre.dpg-caret {white-space: pre; overflow-x: auto; word-break: normal;}
.dpg-editor textarea {font-family: var(--jp-code-font-family) !important;
  font-size: 14px !important; line-height: 1.4 !important;}
.dpg-panel > .widget-html-content {min-width: 0; max-width: 100%;}
.dpg-words input {font-size: 15px !important;}
.dpg-big button {font-size: 15px !important;}
.dpg-clipped {font-size: 13px; font-style: italic; margin: -2px 0 6px;}
.dpg ul.dpg-tree > li.dpg-note {border-left: none; padding: 0 0 2px; margin-bottom: 4px;}
.dpg-label {font-style: italic;}
</style>"""
