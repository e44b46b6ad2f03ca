"""The openai-chat dialect: tools and tool choice (`tools`), request (`request`), response (`response`) and
stream (`stream`) codecs."""
