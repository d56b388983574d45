"""Training-time tools for the NER model: corpus, fine-tuning, export, import (torch only here)."""
