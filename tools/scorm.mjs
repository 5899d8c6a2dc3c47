// What tools/package-scorm writes: a SCORM manifest (1.2 or 2004 4th edition) for one SCO whose
// resource lists every file of the package, or a cmi5 course structure for one AU, and a zip (deflate, or stored where deflate does not
// shrink a file; fixed timestamps, so the same inputs give the same bytes).
import { crc32, deflateRawSync } from 'node:zlib';

const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const HEAD = {
  1.2: {
    ns: 'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    schemaLocation:
      'http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd',
    schemaversion: '1.2',
    scormType: 'adlcp:scormtype',
  },
  2004: {
    ns: 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3" xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    schemaLocation:
      'http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd',
    schemaversion: '2004 4th Edition',
    scormType: 'adlcp:scormType',
  },
};

/**
 * imsmanifest.xml for one SCO launched at `href`, with `files` (paths inside the package) as its resource.
 * 1.2's item has no adlcp:masteryscore: an LMS given one turns any score under it into lesson_status
 * "failed" at each commit (Moodle; scorm-again's mastery_override), which ends the attempt there; the page
 * says passed itself (web/src/scorm.js checkResult).
 */
export function manifest({ scorm, identifier, title, href = 'index.html', files }) {
  const h = HEAD[scorm];
  if (!h) throw new Error(`manifest: SCORM version must be 1.2 or 2004, got ${scorm}`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${xml(identifier)}" version="1" ${h.ns}
  xsi:schemaLocation="${h.schemaLocation}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${h.schemaversion}</schemaversion>
  </metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>${xml(title)}</title>
      <item identifier="item" identifierref="sco" isvisible="true">
        <title>${xml(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" ${h.scormType}="sco" href="${xml(href)}">
${files.map((f) => `      <file href="${xml(f)}"/>`).join('\n')}
    </resource>
  </resources>
</manifest>
`;
}

/**
 * cmi5.xml (cmi5's course structure, section 13) for one AU launched at `href` inside the zip: moveOn
 * Passed (the AU says passed when every test passes, or the LMS's masteryScore is reached).
 */
export function cmi5Structure({ identifier, title, description, lang, href = 'index.html' }) {
  const text = (t) => `<langstring lang="${xml(lang)}">${xml(t)}</langstring>`;
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="urn:attnlab:course:${xml(identifier)}">
    <title>${text(title)}</title>
    <description>${text(description)}</description>
  </course>
  <au id="urn:attnlab:au:${xml(identifier)}" moveOn="Passed" launchMethod="AnyWindow">
    <title>${text(title)}</title>
    <description>${text(description)}</description>
    <url>${xml(href)}</url>
  </au>
</courseStructure>
`;
}

/** A zip archive of entries [{ name, data: Buffer }] → Buffer (no zip64: each file and the whole under 4 GiB). */
export function zip(entries) {
  const DOS_TIME = 0,
    DOS_DATE = ((2026 - 1980) << 9) | (1 << 5) | 1; // 2026-01-01 00:00
  const locals = [],
    centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const deflated = deflateRawSync(data, { level: 9 });
    const stored = deflated.length >= data.length;
    const body = stored ? data : deflated;
    const crc = crc32(data);
    const fields = (sig, extra) => {
      const b = Buffer.alloc(extra ? 46 : 30);
      let o = 0;
      const u32 = (v) => {
        b.writeUInt32LE(v >>> 0, o);
        o += 4;
      };
      const u16 = (v) => {
        b.writeUInt16LE(v, o);
        o += 2;
      };
      u32(sig);
      if (extra) u16(20); // version made by: 2.0
      u16(20);
      u16(0x0800);
      u16(stored ? 0 : 8);
      u16(DOS_TIME);
      u16(DOS_DATE); // version needed, UTF-8 names, method
      u32(crc);
      u32(body.length);
      u32(data.length);
      u16(nameBytes.length);
      u16(0);
      if (extra) {
        u16(0);
        u16(0);
        u16(0);
        u32(0);
        u32(offset);
      } // comment, disk, attributes, local header offset
      return b;
    };
    const local = Buffer.concat([fields(0x04034b50, false), nameBytes, body]);
    centrals.push(Buffer.concat([fields(0x02014b50, true), nameBytes]));
    locals.push(local);
    offset += local.length;
  }
  const central = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}
