// The Machine code panel: the SASS (what the GPU runs) or the PTX of the CUDA source in the editor, each
// source line once above the instructions it produced, as `gpujudge asm` shows them (POST
// /api/problems/<slug>/asm answers with `asm --json`'s object). Apart from app.js, whose el(), api(),
// state and editor() it uses: strings become text, never HTML. Offered for CUDA alone, where the server
// says so (problem.machine_code: not on the host backend).
"use strict";

(() => {
  const panel = {kind: "sass", busy: false};

  function fileName(file, result) {
    if (!file) return "";
    return file === result.source ? `solution${file.slice(file.lastIndexOf("."))}` : file.split("/").pop();
  }

  // One kernel: its name, then each block's source line (a click puts the editor's cursor there) over its code.
  function kernelListing(kernel, result) {
    const lines = [];
    for (const block of kernel.blocks) {
      const where = block.line === null ? "(no source line)"
        : `${fileName(block.file, result)}:${block.line}  ${(block.source || "").trim()}`;
      const attributes = {class: "asm-source"};
      if (block.line !== null && block.file === result.source) {
        attributes["data-line"] = block.line;
        attributes.onclick = () => {
          editor().setCursor(block.line - 1, 0);
          editor().scrollIntoView(null, 100);
          editor().focus();
        };
      }
      lines.push(el("span", attributes, where), "\n");
      for (const code of block.code) {
        const label = !code.address && code.text.endsWith(":");
        lines.push(label ? `    ${code.text}\n` : `      ${code.address ? code.address + "  " : ""}${code.text}\n`);
      }
    }
    return [el("h3", {class: "kernel"}, `${kernel.entry ? "kernel" : "device function"} ${kernel.name}`),
            el("pre", {class: "listing"}, lines)];
  }

  function render(result) {
    const what = result.kind === "ptx" ? `PTX for ${result.arch} (${result.tool})` : `SASS for ${result.arch} (${result.tool})`;
    const compiled = result.compile.ok ? (result.compile.cached ? "compile: ok (cached)" : "compile: ok") : "compile: failed";
    const parts = [el("p", {class: "quiet", id: "asm-what", "data-kind": result.kind}, `${what} · ${compiled}`)];
    if (result.compile.diagnostics)
      parts.push(el("pre", {class: result.compile.ok ? "diagnostics" : "diagnostics bad"},
                    shortened(result.compile.diagnostics, result.source)));
    if (result.compile.ok && !result.kernels.length) parts.push(el("p", {class: "meh"}, "No kernels: solve launches none of its own."));
    for (const kernel of result.kernels) parts.push(...kernelListing(kernel, result));
    return parts;
  }

  async function show(kind) {
    if (panel.busy) return;
    panel.busy = true;
    panel.kind = kind;
    $("#machine-code").hidden = false;
    for (const button of ["sass", "ptx"]) $(`#asm-${button}`).classList.toggle("chosen", button === kind);
    $("#asm").replaceChildren();
    $("#asm-status").textContent = "compiling…";
    try {
      const result = await api(`/api/problems/${state.slug}/asm`, {
        method: "POST", headers: {"Content-Type": "application/json"},
        body: JSON.stringify({source: editor().getValue(), language: state.language, kind}),
      });
      $("#asm").replaceChildren(...render(result));
    } catch (error) {
      $("#asm").replaceChildren(el("p", {class: "bad", id: "asm-error"}, error.message));
    } finally {
      $("#asm-status").textContent = "";
      panel.busy = false;
    }
  }

  // A problem or a language was opened: the panel is the old source's, so it goes; the button stays for CUDA.
  function offer(language) {
    $("#machine-code").hidden = true;
    $("#asm").replaceChildren();
    $("#machine-code-open").hidden = !(language === "cuda" && state.problem && state.problem.machine_code);
  }

  document.addEventListener("gpujudge:language", (event) => offer(event.detail));
  offer(state.language);
  $("#machine-code-open").addEventListener("click", () => show(panel.kind));
  $("#asm-sass").addEventListener("click", () => show("sass"));
  $("#asm-ptx").addEventListener("click", () => show("ptx"));
})();
