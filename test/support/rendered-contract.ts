/**
 * Contracts as a scanner or a phone camera would hand them over: text drawn into a PNG or JPEG with
 * a real font (DejaVu Sans from the dejavu-fonts-ttf package, so the picture is the same on every
 * machine), and a PDF whose page is such a JPEG.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import jpeg from "jpeg-js";

const require = createRequire(import.meta.url);
const FONT = join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans.ttf");

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function render(lines: readonly string[]) {
  const height = 80 + lines.length * 50;
  const text = lines
    .map((line, i) => `<text x="40" y="${70 + i * 50}" font-size="28" fill="#111">${escapeXml(line)}</text>`)
    .join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return new Resvg(svg, {
    font: { fontFiles: [FONT], loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" },
  }).render();
}

export function contractPng(lines: readonly string[]): Uint8Array {
  return new Uint8Array(render(lines).asPng());
}

export function contractJpeg(lines: readonly string[]): Uint8Array {
  const image = render(lines);
  return new Uint8Array(
    jpeg.encode({ data: Buffer.from(image.pixels), width: image.width, height: image.height }, 90).data,
  );
}

/** A one-page PDF whose page is a JPEG scan and nothing else (no text layer). */
export function scannedJpegPdf(scan: Uint8Array, width: number, height: number): Uint8Array {
  const head =
    "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" +
    `2 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /DCTDecode /Length ${scan.length} >>\nstream\n`;
  const tail = `\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n`;
  return new Uint8Array(
    Buffer.concat([Buffer.from(head, "latin1"), Buffer.from(scan), Buffer.from(tail, "latin1")]),
  );
}

export function renderedSize(lines: readonly string[]): { width: number; height: number } {
  const image = render(lines);
  return { width: image.width, height: image.height };
}
