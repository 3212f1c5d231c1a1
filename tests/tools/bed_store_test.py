"""tools/launcher/bed_store.py: which changes of a terrain config make another settled bed (docs/settling.md)."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from launcher.bed_store import StoredBed, bed_key, settles  # noqa: E402

BASE = {"container": {"min": [0, 0, 0], "max": [1, 1, 1]}, "material": {"friction": 0.7, "density": 2600},
        "particles": [{"kind": "heightmap", "image": "hills.pgm", "layers": 3, "radius": 0.01}],
        "step_size": 2e-3, "end_time": 0, "solver": {"method": "apgd", "max_iterations": 100},
        "cosim": {"coupling_step": 2e-3, "settle_time": 0.6, "timeout": 60, "moving_patch": {"ahead": 0.8}},
        "output": {"progress_interval": 10}}


class BedKeyTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.addCleanup(self.folder.cleanup)
        self.image = os.path.join(self.folder.name, "hills.pgm")
        with open(self.image, "wb") as f:
            f.write(b"P5 2 2 255\n\x00\x10\x20\x30")

    def key(self, config, text=None):
        path = os.path.join(self.folder.name, "terrain.json")
        with open(path, "w") as f:
            f.write(text if text is not None else json.dumps(config))
        return bed_key(path)

    def changed(self, edit):
        config = json.loads(json.dumps(BASE))
        edit(config)
        return self.key(config)

    def test_keys_that_do_not_make_the_bed_keep_it(self):
        base = self.key(BASE)
        self.assertEqual(base, self.key(None, "// a comment\n" + json.dumps(BASE, indent=3)))
        for edit in (lambda c: c["output"].update(progress_interval=1), lambda c: c.update(end_time=5),
                     lambda c: c["cosim"].update(coupling_step=1e-3, timeout=20),
                     lambda c: c["cosim"]["moving_patch"].update(ahead=0.3),
                     lambda c: c.update(domain={"layout": "slab:x", "balance_by": "contacts"})):
            self.assertEqual(base, self.changed(edit))

    def test_keys_that_make_the_bed_change_it(self):
        base = self.key(BASE)
        keys = {base}
        for edit in (lambda c: c["material"].update(friction=0.6), lambda c: c.update(step_size=1e-3),
                     lambda c: c["solver"].update(max_iterations=50), lambda c: c["cosim"].update(settle_time=0.5),
                     lambda c: c["cosim"].update(settle_step=5e-4), lambda c: c["particles"][0].update(layers=4),
                     lambda c: c["cosim"].update(compaction={"packing": 0.58}),
                     lambda c: c["cosim"].update(compaction={"packing": 0.59})):
            keys.add(self.changed(edit))
        self.assertEqual(len(keys), 9)
        # With a compaction, the output keys its packing is measured with make the bed too.
        def compacted(margin):
            def edit(c):
                c["cosim"].update(compaction={"packing": 0.58})
                c["output"].update(packing_margin=margin)
            return edit
        self.assertNotEqual(self.changed(compacted(1)), self.changed(compacted(2)))

    def test_a_changed_image_under_the_same_name_changes_the_key(self):
        base = self.key(BASE)
        with open(self.image, "ab") as f:
            f.write(b"\x40")
        self.assertNotEqual(base, self.key(BASE))

    def test_the_store_folder_names_the_config_and_the_key(self):
        path = os.path.join(self.folder.name, "my_bed.json")
        with open(path, "w") as f:
            json.dump(BASE, f)
        bed = StoredBed(path, store=os.path.join(self.folder.name, "beds"))
        self.assertEqual(os.path.basename(bed.folder), "my_bed-" + bed.key[:16])
        self.assertFalse(bed.exists())
        self.assertEqual(bed.made_when(), {})
        self.assertTrue(settles(path))
        config = json.loads(json.dumps(BASE))
        config["cosim"]["settle_time"] = 0
        with open(path, "w") as f:
            json.dump(config, f)
        self.assertFalse(settles(path))
        # A compaction alone is a preparation of the bed too.
        config["cosim"]["compaction"] = {"packing": 0.58}
        with open(path, "w") as f:
            json.dump(config, f)
        self.assertTrue(settles(path))

    def test_a_copied_config_finds_the_bed_its_original_stored(self):
        store = os.path.join(self.folder.name, "beds")
        original = os.path.join(self.folder.name, "original.json")
        with open(original, "w") as f:
            json.dump(BASE, f)
        stored = StoredBed(original, store=store)
        os.makedirs(stored.folder)
        with open(stored.checkpoint, "wb") as f:
            f.write(b"bed")
        copy = os.path.join(self.folder.name, "copy.json")
        with open(copy, "w") as f:
            f.write("// the same terrain under another name\n" + json.dumps(BASE, indent=1))
        # Without a record naming the whole key, a folder that only shares the key's first 16 digits
        # is not trusted.
        self.assertFalse(StoredBed(copy, store=store).exists())
        with open(stored.record, "w") as f:
            json.dump({"key": stored.key[:16] + "0" * 48}, f)
        self.assertFalse(StoredBed(copy, store=store).exists())
        with open(stored.record, "w") as f:
            json.dump({"key": stored.key, "terrain_config": original}, f)
        twin = StoredBed(copy, store=store)
        self.assertTrue(twin.exists())
        self.assertEqual(twin.checkpoint, stored.checkpoint)
        self.assertEqual(twin.made_when()["terrain_config"], original)
        # A changed copy is another terrain: its own folder, no bed.
        changed = json.loads(json.dumps(BASE))
        changed["material"]["friction"] = 0.6
        with open(copy, "w") as f:
            json.dump(changed, f)
        other = StoredBed(copy, store=store)
        self.assertFalse(other.exists())
        self.assertEqual(os.path.basename(other.folder), "copy-" + other.key[:16])


if __name__ == "__main__":
    unittest.main()
