/**
 * The image block's picture upload (decision 060): a file input that sends the picture to
 * `/admin/files` (the merchant's session and CSRF token, stored like `POST /merchant/files`) and
 * puts the stored picture's address in the block's URL field, which stays for an address typed by hand.
 */
import { useId, useState } from "react";
import { useRouteLoaderData } from "@remix-run/react";
import { IMAGE_ACCEPT } from "~/components/product-form";

type Status = { kind: "idle" } | { kind: "busy" } | { kind: "done"; name: string } | { kind: "error"; message: string };

export function ImageUpload({ onUploaded }: { onUploaded: (url: string) => void }) {
  const csrf = useRouteLoaderData<{ csrf: string }>("root")?.csrf ?? "";
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const id = useId();
  const upload = async (file: File) => {
    setStatus({ kind: "busy" });
    const form = new FormData();
    form.set("csrf", csrf);
    form.set("file", file);
    try {
      const res = await fetch("/admin/files", { method: "POST", body: form, credentials: "same-origin" });
      const body = (await res.json().catch(() => null)) as { url?: string; error?: string } | null;
      if (res.status === 201 && body?.url) {
        onUploaded(body.url);
        setStatus({ kind: "done", name: file.name });
      } else
        setStatus({
          kind: "error",
          message: (body?.error ?? `The upload failed (${res.status}).`).replace(/^file: /, "The picture "),
        });
    } catch {
      setStatus({ kind: "error", message: "The upload failed: check the connection and try again." });
    }
  };
  return (
    <div className="field sb-image-upload">
      <label htmlFor={id}>Upload a picture</label>
      <input
        id={id}
        type="file"
        accept={IMAGE_ACCEPT}
        aria-describedby={`${id}-status`}
        disabled={status.kind === "busy"}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      <p id={`${id}-status`} className={status.kind === "error" ? "field-error" : "muted small"} role="status">
        {status.kind === "busy"
          ? "Uploading…"
          : status.kind === "done"
            ? `Uploaded ${status.name}: the block shows it now.`
            : status.kind === "error"
              ? status.message
              : "PNG, JPEG, WebP or GIF, at most 5 MB; or type an address below."}
      </p>
    </div>
  );
}
