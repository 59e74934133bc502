/* The phone's or tablet's camera as a scanner for the check-in page: the QR reader (qr-scanner,
   vendored under static/vendor/) is loaded only when the desk taps "Scan with the camera". Each code
   read goes to checkin.js as if the USB scanner had typed it; the same code seen again within a few
   seconds (the camera sees it many times a second) is sent once. Cameras need https (or localhost). */
const toggle = document.getElementById("camera-toggle");
const box = document.getElementById("camera");
const video = document.getElementById("camera-video");
const REPEAT_MS = 4000;
let scanner = null;
let last = {code: "", at: 0};

function read(result) {
  const code = (result && result.data) || "";
  const now = Date.now();
  if (!code || (code === last.code && now - last.at < REPEAT_MS)) return;
  last = {code, at: now};
  document.dispatchEvent(new CustomEvent("checkin:code", {detail: code}));
}

async function start() {
  const {default: QrScanner} = await import(toggle.dataset.reader);
  if (!(await QrScanner.hasCamera())) {
    toggle.textContent = toggle.dataset.noCamera;
    toggle.disabled = true;
    return;
  }
  // No highlightScanRegion: its overlay carries inline styles, which the Content-Security-Policy refuses.
  scanner = scanner || new QrScanner(video, read, {returnDetailedScanResult: true});
  box.hidden = false;
  await scanner.start();
  toggle.textContent = toggle.dataset.stop;
}

function stop() {
  if (scanner) scanner.stop();
  box.hidden = true;
  toggle.textContent = toggle.dataset.start;
}

if (toggle && navigator.mediaDevices) {
  toggle.hidden = false;
  toggle.addEventListener("click", () => {
    (box.hidden ? start() : Promise.resolve(stop())).catch(() => {
      toggle.textContent = toggle.dataset.noCamera;
      box.hidden = true;
    });
  });
}
