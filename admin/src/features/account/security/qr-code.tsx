import { useMemo } from "react";
import QRCode from "qrcode";

/**
 * `text` as a QR code drawn here as an SVG: the two-factor secret it carries never goes to a QR
 * service. One path of dark modules inside the quiet zone the standard asks for.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { path, width } = useMemo(() => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
    const quiet = 4;
    let d = "";
    for (let row = 0; row < modules.size; row++)
      for (let col = 0; col < modules.size; col++)
        if (modules.get(row, col)) d += `M${col + quiet} ${row + quiet}h1v1h-1z`;
    return { path: d, width: modules.size + 2 * quiet };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${width} ${width}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      style={{ background: "#fff", maxWidth: "100%", height: "auto" }}
    >
      <path d={path} fill="#000" />
    </svg>
  );
}
