#!/usr/bin/env python3
"""Checks of the virtio-gpu VM test (tests/vm/run_virtio_gpu_vm_test.sh); stdlib only.

  check_screen.py compare PHASE DUMP.ppm EXPECTED.ppm
      exact comparison of a QMP screendump with the frame the scene describes
      (virtio_gpu_scene --write-expected); writes DUMP.png beside the dump
  check_screen.py stream DUMP_DIR EXPECTED_DIR
      the dumps taken while the fifo phase streamed: each must be the frame
      before the stream (same.ppm) or a whole fifo frame k (top and bottom
      bands both in C(k), the rest that frame's); k never goes back
  check_screen.py transfers TRACE.log SERIAL.log EXPECTED_DIR [--info-only]
      the virtio-gpu commands QEMU traced and the transfers the driver logged,
      per phase: after `small`, exactly one transfer (of the small rectangle);
      after `same`, none
  check_screen.py vnc-set-size SOCKET W H
      asks QEMU's VNC server (on a unix socket, bound to one scanout) for a
      WxH desktop: this is what enables a second virtio-gpu scanout headless
Each prints its findings and ends with "CHECK <name> PASS|FAIL"; exit 0 = pass.
"""
import os
import re
import struct
import sys
import zlib


def read_ppm(path):
    data = open(path, 'rb').read()
    parts, pos = [], 0
    while len(parts) < 4:  # magic, width, height, maxval (QEMU writes no comments)
        while data[pos:pos + 1].isspace():
            pos += 1
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        parts.append(data[pos:end])
        pos = end
    if parts[0] != b'P6' or parts[3] != b'255':
        raise ValueError(f'{path}: not a binary 8-bit PPM ({parts})')
    w, h = int(parts[1]), int(parts[2])
    px = data[pos + 1:pos + 1 + w * h * 3]
    if len(px) != w * h * 3:
        raise ValueError(f'{path}: truncated')
    return w, h, px


def write_png(path, w, h, rgb):
    raw = b''.join(b'\x00' + rgb[y * w * 3:(y + 1) * w * 3] for y in range(h))

    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
                + chunk(b'IDAT', zlib.compress(raw, 1)) + chunk(b'IEND', b''))


def png_path(ppm):
    return ppm.rsplit('.', 1)[0] + '.png'


def mismatches(w, px, exp, rows):
    """(count, bbox, first few) of the pixels that differ in the given rows."""
    count, first = 0, []
    x0 = y0 = 1 << 30
    x1 = y1 = -1
    for y in rows:
        a, b = px[y * w * 3:(y + 1) * w * 3], exp[y * w * 3:(y + 1) * w * 3]
        if a == b:
            continue
        for x in range(w):
            if a[x * 3:x * 3 + 3] != b[x * 3:x * 3 + 3]:
                count += 1
                x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
                if len(first) < 5:
                    first.append(f'({x},{y}) got {tuple(a[x*3:x*3+3])} expected {tuple(b[x*3:x*3+3])}')
    bbox = f'{x1 - x0 + 1}x{y1 - y0 + 1}+{x0}+{y0}' if count else ''
    return count, bbox, first


def cmd_compare(phase, dump, expected):
    w, h, px = read_ppm(dump)
    write_png(png_path(dump), w, h, px)
    ew, eh, exp = read_ppm(expected)
    if (w, h) != (ew, eh):
        print(f'{phase}: screen is {w}x{h}, expected {ew}x{eh}')
        print(f'CHECK {phase} FAIL')
        return 1
    count, bbox, first = mismatches(w, px, exp, range(h))
    if count:
        print(f'{phase}: {w}x{h}, {count} pixels differ (bounding box {bbox})')
        for line in first:
            print('  ' + line)
        write_png(png_path(dump).replace('.png', '.expected.png'), w, h, exp)
    else:
        print(f'{phase}: {w}x{h}, every pixel as expected')
    print(f'CHECK {phase} {"FAIL" if count else "PASS"}')
    return 1 if count else 0


def read_colours(expected_dir):
    band, colours = 32, {}
    for line in open(os.path.join(expected_dir, 'fifo_colours.txt')):
        f = line.split()
        if not f or f[0].startswith('#'):
            continue
        if f[0] == 'band':
            band = int(f[1])
        else:
            colours[bytes(int(v) for v in f[1:4])] = int(f[0])
    return band, colours


def uniform(row_bytes):
    c = row_bytes[:3]
    return c if row_bytes == c * (len(row_bytes) // 3) else None


def cmd_stream(dump_dir, expected_dir):
    band, colours = read_colours(expected_dir)
    bw, bh, before = read_ppm(os.path.join(expected_dir, 'same.ppm'))
    dumps = sorted(f for f in os.listdir(dump_dir) if f.endswith('.ppm'))
    stride = bw * 3
    seen, bad, n_before, last_k, order_errors = [], 0, 0, -1, 0
    for name in dumps:
        path = os.path.join(dump_dir, name)
        w, h, px = read_ppm(path)
        verdict = None
        if (w, h) != (bw, bh):
            verdict = f'size {w}x{h}, expected {bw}x{bh}'
        elif px == before:
            n_before += 1
            if last_k >= 0:
                verdict = f'the pre-stream frame after fifo frame {last_k}'
        else:
            top = px[:band * stride]
            bottom = px[(h - band) * stride:]
            ct, cb = uniform(top), uniform(bottom)
            if ct is None or cb is None or ct != cb:
                desc = lambda part: 'uniform ' + str(tuple(uniform(part))) if uniform(part) else \
                    f'{len(set(part[i:i+3] for i in range(0, len(part), 3)))} colours'
                verdict = f'TORN: top band {desc(top)}, bottom band {desc(bottom)}'
            elif ct not in colours:
                verdict = f'band colour {tuple(ct)} is no C(k)'
            else:
                k = colours[ct]
                count, bbox, first = mismatches(w, px, before, range(band, h - band))
                if count:
                    verdict = f'fifo frame {k} bands, but {count} pixels between them differ (box {bbox})'
                elif k < last_k:
                    verdict = f'fifo frame {k} after frame {last_k}: out of order'
                    order_errors += 1
                else:
                    seen.append(k)
                    last_k = k
        if verdict is not None:
            bad += 1
            if bad <= 10:
                print(f'  {name}: {verdict}')
            write_png(png_path(path), w, h, px)
        else:
            os.remove(path)  # good dumps are not kept (a megabyte each)
    distinct = sorted(set(seen))
    print(f'fifo stream: {len(dumps)} screendumps: {n_before} before the first fifo frame, '
          f'{len(seen)} whole fifo frames ({len(distinct)} distinct k: {compress_ranges(distinct)}), {bad} bad')
    ok = bad == 0 and len(dumps) > 0
    if not dumps:
        print('  no screendump was taken during the stream')
    print(f'CHECK fifo_stream {"PASS" if ok else "FAIL"}')
    return 0 if ok else 1


def compress_ranges(values):
    out, i = [], 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f'{values[i]}-{values[j]}')
        i = j + 1
    return ','.join(out) or 'none'


PHASES = ['full', 'small', 'same', 'fifo', 'mode', 'second']
TRANSFER_RE = re.compile(r'virtio-gpu: transfer res (\d+) (\d+),(\d+) (\d+)x(\d+)')


def trace_segments(trace):
    """virtio_gpu_cmd_* counts between the host's phase screendumps (QMP
    commands traced by handle_qmp_command, in order with the device's work)."""
    segments, current, name = [], {}, 'boot'
    marker = re.compile(r'handle_qmp_command .*"screendump".*/([a-z0-9]+)\.ppm"')
    for line in open(trace, errors='replace'):
        m = marker.search(line)
        if m and m.group(1) in PHASES:
            segments.append((name, current))
            name, current = m.group(1), {}
            continue
        m = re.search(r'virtio_gpu_cmd_([a-z0-9_]+)', line)
        if m:
            current[m.group(1)] = current.get(m.group(1), 0) + 1
    segments.append((name, current))
    return segments


def serial_segments(serial):
    """The driver's transfer log lines between the guest's READY lines."""
    segments, current, name = [], [], 'boot'
    for line in open(serial, errors='replace'):
        m = re.search(r'PHASE ([a-z0-9]+) READY', line)
        if m:
            segments.append((name, current))
            name, current = m.group(1), []
            continue
        m = TRANSFER_RE.search(line)
        if m:
            current.append(tuple(int(v) for v in m.groups()))
    segments.append((name, current))
    return segments


def cmd_transfers(trace, serial, expected_dir, info_only):
    rect = tuple(int(v) for v in open(os.path.join(expected_dir, 'small_rect.txt')).read().split())
    tr = dict(trace_segments(trace))
    se = dict(serial_segments(serial))
    # Segment named X = what happened after phase X's READY, up to the next one.
    label = {'boot': 'up to full', 'full': 'full -> small', 'small': 'small -> same', 'same': 'same -> fifo',
             'fifo': 'fifo -> mode', 'mode': 'mode -> second', 'second': 'after second'}
    for seg in ['boot'] + PHASES:
        cmds = tr.get(seg, {})
        logged = se.get(seg, [])
        print(f'  {label[seg]:14} trace: ' + (', '.join(f'{k}={v}' for k, v in sorted(cmds.items())) or 'nothing') +
              f'; driver transfer lines: {len(logged)}' +
              (' ' + ' '.join(f'{x},{y}+{w}x{h}' for _, x, y, w, h in logged[:6]) if logged else ''))
    ok = True
    problems = []
    if 'full' not in tr or 'small' not in tr or 'same' not in tr:
        problems.append('the trace lacks the full/small/same screendump markers')
    else:
        n = tr['full'].get('res_xfer_toh_2d', 0)
        if n != 1:
            problems.append(f'small: QEMU traced {n} res_xfer_toh_2d, expected exactly 1')
        logged = se.get('full', [])
        want = rect
        if len(logged) != 1 or logged[0][1:] != want:
            problems.append(f'small: the driver logged {len(logged)} transfers '
                            f'{[f"{x},{y} {w}x{h}" for _, x, y, w, h in logged[:4]]}, expected exactly one: '
                            f'{want[0]},{want[1]} {want[2]}x{want[3]}')
        n = tr['small'].get('res_xfer_toh_2d', 0)
        if n != 0:
            problems.append(f'same: QEMU traced {n} res_xfer_toh_2d, expected none')
        if se.get('small'):
            problems.append(f'same: the driver logged {len(se["small"])} transfers, expected none')
    for p in problems:
        print(('  INFO (not checked): ' if info_only else '  ') + p)
    ok = not problems or info_only
    print(f'CHECK transfers {"PASS" if ok else "FAIL"}{" (checks skipped: VM_TEST_SKIP_TRANSFER_CHECKS=1)" if info_only else ""}')
    return 0 if ok else 1


def cmd_vnc_set_size(path, w, h):
    """Connects to QEMU's VNC server on a unix socket and asks for a WxH
    desktop (RFB SetDesktopSize): QEMU hands that to the device as the
    screen's size (dpy_set_ui_info), which for virtio-gpu also enables the
    scanout, so the guest sees its connector connected; 0x0 disables it
    (the guest sees it disconnected, as an unplugged monitor)."""
    import socket
    import time
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    for _ in range(200):
        try:
            s.connect(path)
            break
        except OSError:
            time.sleep(0.025)
    else:
        print(f'vnc: cannot connect to {path}')
        return 1
    s.settimeout(10)

    def recv(n):
        b = b''
        while len(b) < n:
            c = s.recv(n - len(b))
            if not c:
                raise EOFError('VNC server closed the connection')
            b += c
        return b
    if not recv(12).startswith(b'RFB 003.'):
        print('vnc: not an RFB server')
        return 1
    s.sendall(b'RFB 003.008\n')
    types = recv(recv(1)[0])
    if 1 not in types:
        print(f'vnc: security types {list(types)} lack None')
        return 1
    s.sendall(b'\x01')                     # security: None
    if struct.unpack('>I', recv(4))[0] != 0:
        print('vnc: security handshake failed')
        return 1
    s.sendall(b'\x01')                     # ClientInit: shared
    sw, sh = struct.unpack('>HH', recv(4))
    recv(16)
    recv(struct.unpack('>I', recv(4))[0])
    encodings = [0, -223, -308]            # raw, DesktopSize, ExtendedDesktopSize
    s.sendall(struct.pack('>BBH', 2, 0, len(encodings)) + b''.join(struct.pack('>i', e) for e in encodings))
    s.sendall(struct.pack('>BBHHBB', 251, 0, w, h, 1, 0) + struct.pack('>IHHHHI', 0, 0, 0, w, h, 0))
    # The answer: a FramebufferUpdate with one ExtendedDesktopSize rectangle
    # whose y field is the status (reason 4: forwarded to the device).
    hdr = recv(4)
    rect = recv(12)
    x, y, rw, rh, enc = struct.unpack('>HHHHi', rect)
    print(f'vnc: server desktop was {sw}x{sh}; SetDesktopSize {w}x{h} -> reason {x} status {y} ({rw}x{rh}, encoding {enc})')
    s.close()
    # QEMU 7.2 answers status 4 for a request it forwarded to the device.
    return 0 if hdr[0] == 0 and enc == -308 and y in (0, 4) else 1


def main(argv):
    if len(argv) == 5 and argv[1] == 'compare':
        return cmd_compare(argv[2], argv[3], argv[4])
    if len(argv) == 4 and argv[1] == 'stream':
        return cmd_stream(argv[2], argv[3])
    if len(argv) in (5, 6) and argv[1] == 'transfers':
        return cmd_transfers(argv[2], argv[3], argv[4], len(argv) == 6 and argv[5] == '--info-only')
    if len(argv) == 5 and argv[1] == 'vnc-set-size':
        return cmd_vnc_set_size(argv[2], int(argv[3]), int(argv[4]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
