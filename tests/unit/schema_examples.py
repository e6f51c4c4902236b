"""The XML examples of dial-schema-v0.1.md, verbatim, in the order they appear."""

EXAMPLES: list[str] = [
    """\
<dial version="0.1" turn="3" actor="agent" session="sess-abc123">
  ...
</dial>
""",
    """\
<dial-inform id="result" render="prose" yield="result:delivered">
  The image was generated successfully. Resolution: 1024×1024.
</dial-inform>
""",
    """\
<dial-inform id="product-list" render="card-list">
  <dial-payload type="application/json">
    [
      { "id": "sku-001", "title": "Nike Air Max", "price": 129, "currency": "USD" },
      { "id": "sku-002", "title": "Adidas Ultraboost", "price": 160, "currency": "USD" }
    ]
  </dial-payload>
</dial-inform>
""",
    """\
<dial-ask id="confirm-delete"
        response-type="confirm"
        yield="delete:confirmed delete:cancelled">
  Are you sure you want to delete all 47 files in this folder? This cannot be undone.
</dial-ask>
""",
    """\
<dial-ask id="get-style-pref"
        response-type="choice"
        yield="style:chosen"
        timeout="30">
  Which visual style would you like for the generated image?
  <dial-option value="photorealistic">Photorealistic</dial-option>
  <dial-option value="illustration">Illustration</dial-option>
  <dial-option value="minimalist">Minimalist</dial-option>
</dial-ask>
""",
    """\
<dial-suggest id="product-suggestions"
            render="card-list"
            action="add-to-cart"
            yield="item:selected item:dismissed">
  <dial-payload type="application/json">
    [
      { "id": "sku-001", "title": "Nike Air Max", "price": 129, "currency": "USD", "badge": "Best Seller" },
      { "id": "sku-002", "title": "Adidas Ultraboost", "price": 160, "currency": "USD" }
    ]
  </dial-payload>
</dial-suggest>
""",
    """\
<dial-execute id="setup-op" observe="confirm:received" yield="setup:done setup:failed">

  <step env="shell" id="make-dir" yield="dir:ready">
    mkdir -p /home/user/docs/project
  </step>

  <step env="shell" id="write-config" observe="dir:ready" yield="config:written">
    echo '{"version": "1.0"}' > /home/user/docs/project/config.json
  </step>

</dial-execute>
""",
    """\
<dial-acknowledge id="ack-upload" of="file-upload-request" yield="ack:sent">
  Got it — processing your file now.
</dial-acknowledge>
""",
    """\
<dial-declare id="set-artefact"
            context-key="active-artefact"
            yield="artefact:set">
  <dial-payload type="application/json">
    { "slug": "nike-campaign", "vectorSpace": "vs-abc123", "brandColor": "#f97316" }
  </dial-payload>
</dial-declare>
""",
    """\
<dial-delegate id="handoff-billing"
             to="billing-agent"
             intent="resolve-payment-dispute"
             yield="delegation:accepted delegation:rejected">
  The user needs help with a charge from March 2026. Handing off to billing.
  <dial-context>
    <dial-payload type="application/json">
      { "userId": "usr-999", "chargeId": "chg-8827", "amount": 49.99, "currency": "USD" }
    </dial-payload>
  </dial-context>
</dial-delegate>
""",
    """\
<dial-phatic signal="typing" />
""",
    """\
<dial-phatic signal="heartbeat" interval="30" />
""",
    """\
<dial-payload type="application/json">
  { "key": "value" }
</dial-payload>
""",
    """\
<dial-option value="photorealistic" default="true">Photorealistic</dial-option>
""",
    """\
<?xml version="1.0" encoding="UTF-8"?>
<dial version="0.1" turn="2" actor="agent" session="sess-shop-7712">

  <!-- Declare the active product domain into shared context -->
  <dial-declare id="ctx-domain" context-key="product-domain" yield="domain:set">
    <dial-payload type="application/json">
      { "category": "footwear", "brand": "nike", "priceRange": [80, 200] }
    </dial-payload>
  </dial-declare>

  <!-- Inform: search result summary (activates after context is set) -->
  <dial-inform id="search-summary"
             observe="domain:set"
             render="prose"
             yield="summary:shown">
    Found 24 Nike footwear options in your price range. Here are the top picks:
  </dial-inform>

  <!-- Suggest: product cards (activates after summary shown) -->
  <dial-suggest id="top-picks"
              observe="summary:shown"
              render="card-list"
              action="add-to-cart"
              yield="item:selected item:dismissed">
    <dial-payload type="application/json">
      [
        { "id": "sku-001", "title": "Nike Air Max 270", "price": 130, "currency": "USD", "badge": "Best Seller", "image": "https://cdn.example.com/am270.jpg" },
        { "id": "sku-002", "title": "Nike React Infinity", "price": 160, "currency": "USD", "badge": "New", "image": "https://cdn.example.com/react.jpg" },
        { "id": "sku-003", "title": "Nike Revolution 6", "price": 85, "currency": "USD", "image": "https://cdn.example.com/rev6.jpg" }
      ]
    </dial-payload>
  </dial-suggest>

  <!-- Ask: refine filter (parallel to suggest — does not gate on it) -->
  <dial-ask id="filter-ask"
          observe="summary:shown"
          response-type="choice"
          yield="filter:chosen"
          addressed-to="human">
    Would you like to filter by a specific use case?
    <dial-option value="running">Running</dial-option>
    <dial-option value="casual">Casual / Lifestyle</dial-option>
    <dial-option value="training">Training</dial-option>
    <dial-option value="none" default="true">No preference</dial-option>
  </dial-ask>

</dial>
""",
    """\
<?xml version="1.0" encoding="UTF-8"?>
<dial version="0.1" turn="4" actor="agent" session="sess-fs-0042">

  <!-- Ask for confirmation before any execution -->
  <dial-ask id="confirm-delete"
          response-type="confirm"
          yield="delete:confirmed delete:cancelled">
    This will permanently delete all files in /home/user/archive/2024.
    This cannot be undone. Proceed?
  </dial-ask>

  <!-- Execute shell steps — gated on human confirmation -->
  <dial-execute id="delete-op"
              observe="delete:confirmed"
              yield="delete:done delete:failed">

    <step env="shell" id="count-files" yield="count:done">
      ls /home/user/archive/2024 | wc -l
    </step>

    <step env="shell" id="delete-files" observe="count:done" yield="files:deleted">
      rm -rf /home/user/archive/2024/*
    </step>

  </dial-execute>

  <!-- Inform result — gated on execution -->
  <dial-inform id="result-ok"
             observe="delete:done"
             render="prose">
    Done. Archive cleared.
  </dial-inform>

  <!-- Acknowledge cancellation — gated on the other confirm branch -->
  <dial-acknowledge id="ack-cancel"
                  of="confirm-delete"
                  observe="delete:cancelled">
    Understood — no files were deleted.
  </dial-acknowledge>

</dial>
""",
]
